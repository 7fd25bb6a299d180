/**
 * The real CLI as a child process (`node bin/chatbench.js ...`), for what only a process can show:
 * signals, SIGKILL, exit codes. The environment is minimal (no developer CHATBENCH_* settings) and
 * the child is killed in teardown if a test left it running.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

export interface CliProcess {
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (or the signal's name) and the wall time since spawn, ms. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }>;
}

/**
 * Spawns `node bin/chatbench.js ARGS` in the repository root. A concurrent test passes its
 * context's `onTestFinished` (vitest's global one attaches to whichever test started last).
 */
export function spawnCli(
  args: readonly string[],
  env: Record<string, string> = {},
  onFinished: typeof onTestFinished = onTestFinished,
): CliProcess {
  const started = performance.now();
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'chatbench.js'), ...args], {
    cwd: ROOT,
    env: {
      PATH: process.env['PATH'] ?? '',
      HOME: process.env['HOME'] ?? '',
      TMPDIR: tmpdir(), // the run's (test/global-setup.mjs), removed when it ends
      CHATBENCH_HISTORY: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout?.on('data', (b: Buffer) => out.push(b));
  child.stderr?.on('data', (b: Buffer) => err.push(b));
  // 'close', not 'exit': a process can exit before its last writes to stdout and stderr have reached
  // us, and a test that read stderr at 'exit' missed the final line (test:stress, a busy machine).
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }>((resolve) => {
    child.once('close', (code, signal) => resolve({ code, signal, ms: performance.now() - started }));
  });
  onFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return {
    child,
    stdout: () => Buffer.concat(out).toString('utf8'),
    stderr: () => Buffer.concat(err).toString('utf8'),
    exited,
  };
}

/**
 * Polls `condition` every 20 ms until it holds; rejects after `timeoutMs` with `what` (a function is
 * read then, e.g. to show a process's output as it is at the timeout). The bound catches a hang,
 * not a slow machine: a busy CI runner may take many times a quiet one's time.
 */
export async function waitFor(
  condition: () => boolean,
  what: string | (() => string),
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline)
      throw new Error(`timed out waiting for ${typeof what === 'function' ? what() : what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Complete lines (ending in a newline) in FILE now; 0 when it does not exist yet. */
export function completeLines(file: string): number {
  if (!existsSync(file)) return 0;
  const text = readFileSync(file, 'utf8');
  return text.split('\n').length - 1;
}

/** Runs `node bin/chatbench.js ARGS` to its end; killed after `timeoutMs` (a hang, not a slow machine). */
export async function runCli(
  args: readonly string[],
  timeoutMs = 120_000,
): Promise<{ code: number | null; stderr: string }> {
  const cli = spawnCli(args);
  const timer = setTimeout(() => cli.child.kill('SIGKILL'), timeoutMs);
  const { code } = await cli.exited;
  clearTimeout(timer);
  return { code, stderr: cli.stderr() };
}
