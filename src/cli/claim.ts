/**
 * @module cli/claim
 * Claims a run directory for the command (app/store/run-dir-lock.ts) with this process as the owner: its
 * pid and host, its instance as /proc tells it, and a liveness check by signal 0 that only the CLI
 * may make.
 */
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { instanceOf, type ProcReader } from '../app/store/process-instance.js';
import { claimRunDir, type RunDirClaim } from '../app/store/run-dir-lock.js';
import type { Io } from './io.js';

/** Whether process `pid` of this host is running: signal 0 checks without touching it (EPERM: it is, as another user). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A /proc file's text; undefined where /proc or the file is absent (another OS, a process gone). */
export const readProc: ProcReader = (path) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
};

/** Claims `dir` (relative to io.cwd) for `command`; `label` names it in messages (`--out reports/x`). */
export function claimDir(
  io: Io,
  dir: string,
  options: { label: string; command: string; create?: boolean },
): Promise<RunDirClaim> {
  return claimRunDir(resolve(io.cwd, dir), {
    label: options.label,
    create: options.create ?? true,
    owner: {
      pid: process.pid,
      hostname: hostname(),
      command: options.command,
      instance: instanceOf(process.pid, readProc),
      readProc,
      isAlive: isProcessAlive,
    },
  });
}
