/**
 * @module history/register
 * The hook every run goes through when it ends (cli/main calls it once for eval, load, capacity,
 * merge and compare): the run directory read into the store, with the working directory's git
 * commit and branch. A failure to register is a warning; the run's exit code stands.
 */
import { execFile } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { REGISTERED_COMMANDS } from './location.js';
import { readRunEntry, type RunContext } from './read-run.js';
import { putRun, withStore } from './store.js';

const run = promisify(execFile);

/** The commit and branch of the working directory; nulls outside a git work tree or without git. */
export async function gitOf(cwd: string): Promise<{ commit: string | null; branch: string | null }> {
  const ask = async (args: string[]) =>
    (await run('git', args, { cwd, timeout: 5000 }).catch(() => undefined))?.stdout.trim() || null;
  const [commit, branch] = await Promise.all([ask(['rev-parse', 'HEAD']), ask(['rev-parse', '--abbrev-ref', 'HEAD'])]);
  return { commit, branch: branch === 'HEAD' ? null : branch };
}

type Registered = (typeof REGISTERED_COMMANDS)[number];

/** The part of a command's `--json` result the hook reads. */
export interface FinishedRun {
  command: Registered;
  exit_code: number;
  run_dir?: string | undefined;
  files?: readonly string[] | undefined;
  decision?: { status: string; exit_code: number; headline: string } | undefined;
  baseline_run?: string | null | undefined;
}

/** The directory a result names: run_dir, else (compare) the folder of its first file. */
const dirOf = (r: FinishedRun): string | undefined =>
  r.run_dir ?? (r.files?.[0] === undefined ? undefined : dirname(r.files[0]));

/** Registers a finished run; returns a warning line instead of throwing. */
export async function registerFinished(result: FinishedRun, file: string, cwd: string): Promise<string | undefined> {
  const dir = dirOf(result);
  if (dir === undefined) return undefined;
  try {
    const context: RunContext = {
      command: result.command,
      git: await gitOf(cwd),
      ended_at: new Date().toISOString(),
      baseline_run: result.baseline_run ? resolve(cwd, result.baseline_run) : null,
      exit_code: result.exit_code,
      // The exit code the process ends with: the verdict's, or the interrupt's (130, 143) when it was stopped.
      ...(result.decision
        ? {
            verdict: {
              status: result.decision.status,
              exit_code: result.exit_code,
              headline: result.decision.headline,
            },
          }
        : {}),
    };
    const entry = await readRunEntry(resolve(cwd, dir), context);
    await withStore(file, (db) => putRun(db, entry));
    return undefined;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return `chatbench ${result.command}: warning: the run was not added to the history ${file}: ${message.split('\n')[0]}`;
  }
}
