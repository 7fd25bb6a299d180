/**
 * @module app/eval/project-instructions
 * A set's project instructions (`defaults.project` of the sets file) replace the text stored on the
 * project before the first request (docs/reference/service-api.md "Project instructions"). The run
 * reads the text first, so that manifest.json keeps it (`project.previous_instructions`), and with
 * `--restore-project` puts it back when the run ends, interrupted or not.
 */
import {
  getProjectInstructions,
  putProjectInstructions,
  type ProjectClientOptions,
} from '../../client/project-client.js';
import { RunError } from '../../errors.js';
import type { ProjectManifest } from '../store/manifest.js';

export interface ProjectSetting {
  readonly id: number;
  readonly instructions: string;
}

/** The project's instructions before the run: what manifest.json keeps and a restore puts back. */
export async function readPrevious(endpoint: ProjectClientOptions, project: ProjectSetting): Promise<ProjectManifest> {
  const { instructions } = await getProjectInstructions(endpoint, project.id);
  return { id: project.id, previous_instructions: instructions, restored_at: null };
}

/** Sets the project's instructions before the first request and reads them back to be sure. */
export async function applyProject(endpoint: ProjectClientOptions, project: ProjectSetting): Promise<void> {
  await putProjectInstructions(endpoint, project.id, project.instructions);
  const saved = await getProjectInstructions(endpoint, project.id);
  if (saved.instructions !== project.instructions) {
    throw new RunError(`project ${project.id}: the service saved other instructions than those sent`);
  }
}

/**
 * Puts `before.previous_instructions` back on the project; the manifest's part with `restored_at`
 * set. A RunError when the service refuses (the text stays in manifest.json for a person to restore).
 */
export async function restoreProject(
  endpoint: ProjectClientOptions,
  before: ProjectManifest,
  now: Date,
): Promise<ProjectManifest> {
  if (before.previous_instructions === null)
    throw new RunError(`project ${before.id}: its previous instructions were not read, so they cannot be put back`);
  await putProjectInstructions(endpoint, before.id, before.previous_instructions);
  return { ...before, restored_at: now.toISOString() };
}

/** The start line's words on the project: what was replaced, where the old text is, and whether it comes back. */
export function describeProject(project: ProjectSetting, before: ProjectManifest, restore: boolean): string {
  const previous = before.previous_instructions;
  const was =
    previous === null
      ? 'its previous text unknown'
      : previous === ''
        ? 'they were empty'
        : `the previous ${previous.length} characters kept in manifest.json (project.previous_instructions)`;
  const then = restore
    ? 'put back when the run ends (--restore-project)'
    : 'left in place after the run (--restore-project puts them back)';
  return `project ${project.id}'s instructions replaced by the sets file's ${project.instructions.length} characters; ${was}; ${then}`;
}
