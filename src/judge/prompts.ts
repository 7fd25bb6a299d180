/**
 * @module judge/prompts
 * The judge's instructions: one versioned Markdown file per task under prompts/<version>/, shipped
 * with the sources and named in every record (`judge.prompt_version`). Changing a prompt means a
 * new version directory, so that cached verdicts and old records never mix two wordings.
 */
import { readFile } from 'node:fs/promises';
import { JUDGE_TASKS, type JudgeTask } from '../api/judge.js';

/** The prompts this version of chatbench asks with. */
export const PROMPT_VERSION = 'v1';

export type Prompts = Readonly<Record<JudgeTask, string>>;

/** Reads the prompt files of `version` (default PROMPT_VERSION). */
export async function loadPrompts(version = PROMPT_VERSION): Promise<Prompts> {
  const entries = await Promise.all(
    JUDGE_TASKS.map(
      async (task) =>
        [task, (await readFile(new URL(`./prompts/${version}/${task}.md`, import.meta.url), 'utf8')).trim()] as const,
    ),
  );
  return Object.fromEntries(entries) as Record<JudgeTask, string>;
}
