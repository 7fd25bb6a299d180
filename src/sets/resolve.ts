/**
 * @module sets/resolve
 * Puts together the sets of one run: those of the sets file, then those of `--set` flags, and
 * decides which modes each set runs in. Nothing here reads the command line itself.
 */
import { z } from 'zod';
import type { Mode } from '../records/record.js';
import { InputError, ToolkitError } from '../errors.js';
import { readSets } from './read-sets.js';
import type { SetDefinition, SetsDefaults } from './schema.js';
import { parseSetFlag } from './set-flag.js';
import { MODE_OPTIONS, type ModeOption } from './flag-forms.js';

/** `--mode`: `both` runs each set streamed and full, except multi-model sets (stream only). */
export const ModeOptionSchema = z.enum(MODE_OPTIONS);
export type { ModeOption };

/** The sets of a run with the defaults they share. */
export interface ResolvedSets {
  readonly sets: SetDefinition[];
  readonly defaults: SetsDefaults;
  /** The sets file as named by the user, or null when none was given. */
  readonly modelsPath: string | null;
}

/** The name of the one set a run has when neither a sets file nor `--set` gives any. */
export const DEFAULT_SET_NAME = 'default';

/**
 * File sets first, then flag sets, in the order given. A name used twice across both is an
 * error; no set at all gives one set named `default` with no override (the service's model).
 * Every problem of the file and of every flag is listed in one InputError.
 */
export async function resolveSets(options: {
  modelsPath?: string | undefined;
  setFlags: readonly string[];
  cwd?: string;
}): Promise<ResolvedSets> {
  const problems: string[] = [];
  let fileSets: SetDefinition[] = [];
  let defaults: SetsDefaults = {};
  if (options.modelsPath !== undefined) {
    try {
      const file = await readSets({
        path: options.modelsPath,
        ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      });
      fileSets = file.sets;
      defaults = file.defaults;
    } catch (error) {
      problems.push(...problemsOf(error));
    }
  }
  const sets = [...fileSets];
  for (const flag of options.setFlags) {
    try {
      const set = parseSetFlag(flag);
      if (!sets.some((other) => other.name === set.name)) sets.push(set);
      else {
        const where = fileSets.some((other) => other.name === set.name)
          ? `in ${options.modelsPath}`
          : 'by an earlier --set';
        problems.push(
          `--set ${JSON.stringify(flag)}: a set named ${JSON.stringify(set.name)} is already defined ${where}`,
        );
      }
    } catch (error) {
      problems.push(...problemsOf(error));
    }
  }
  if (problems.length > 0) throw new InputError(problems);
  if (sets.length === 0) sets.push({ name: DEFAULT_SET_NAME, llm_override: null, llm_overrides: null, multi: false });
  return { sets, defaults, modelsPath: options.modelsPath ?? null };
}

function problemsOf(error: unknown): readonly string[] {
  if (error instanceof InputError) return error.problems;
  if (error instanceof ToolkitError) return [error.message];
  throw error;
}

/**
 * Refuses a multi-model set with `--mode full`: the service answers 400 to llm_overrides with
 * stream=false. With `both`, such sets simply run streamed only (see `plannedModes`).
 */
export function checkSetsForMode(sets: readonly SetDefinition[], mode: ModeOption): void {
  if (mode !== 'full') return;
  const problems = sets
    .filter((set) => set.multi)
    .map(
      (set) =>
        `set ${JSON.stringify(set.name)} is multi-model and --mode is full: the service answers 400 to multi-model with stream=false; use --mode stream`,
    );
  if (problems.length > 0) throw new InputError(problems);
}

/** The modes a set runs in under `mode`; a multi-model set never runs full. */
export function plannedModes(set: Pick<SetDefinition, 'multi'>, mode: ModeOption): Mode[] {
  const modes: Mode[] = mode === 'both' ? ['stream', 'full'] : [mode];
  return set.multi ? modes.filter((m) => m === 'stream') : modes;
}
