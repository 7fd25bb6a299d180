/**
 * @module bench/lib/child-ipc
 * Child processes for the benchmarks: spawned from a TypeScript entry through tsx, pinned to one core
 * with `taskset` when the machine has it (so the simulator and the client under test never share a
 * core), and spoken to over Node's IPC channel with typed request/reply messages.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';

/** Every IPC message names its kind. */
export interface Message {
  readonly type: string;
}

/** True when `taskset` exists and may set this machine's affinity (absent on macOS, in some sandboxes). */
export function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['-c', '0', 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Pins this process to `core`; false (and no change) when taskset is missing or refuses. */
export function pinSelf(core: number): boolean {
  try {
    execFileSync('taskset', ['-p', '-c', String(core), String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export interface SpawnOptions {
  /** The TypeScript entry to run (absolute path). */
  readonly script: string;
  readonly args: readonly string[];
  /** Pin the child to this core; null = leave it unpinned. */
  readonly core: number | null;
  /** Extra Node flags, e.g. `--expose-gc`. */
  readonly nodeFlags?: readonly string[];
}

/** Starts `node [flags] --import tsx script args` with an IPC channel; stdout and stderr are shared. */
export function spawnBenchChild(options: SpawnOptions): ChildProcess {
  const node = [...process.execArgv, ...(options.nodeFlags ?? []), '--import', 'tsx', options.script, ...options.args];
  const stdio = ['ignore', 'inherit', 'inherit', 'ipc'] as const;
  return options.core === null
    ? spawn(process.execPath, node, { stdio: [...stdio] })
    : spawn('taskset', ['-c', String(options.core), process.execPath, ...node], { stdio: [...stdio] });
}

/**
 * The child's next message of kind `type` (or of any of the kinds listed). Rejects after
 * `timeoutMs`, or when the child exits first (with its exit code, so a crash in the child is not
 * reported as a timeout).
 */
export function nextMessage<M extends Message, T extends M['type']>(
  child: ChildProcess,
  type: T | readonly T[],
  timeoutMs = 30_000,
): Promise<Extract<M, { type: T }>> {
  const wanted: readonly string[] = typeof type === 'string' ? [type] : type;
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`the child sent no "${wanted.join('" or "')}" within ${timeoutMs} ms`));
    }, timeoutMs);
    const onMessage = (message: M) => {
      if (!wanted.includes(message.type)) return;
      cleanup();
      resolve(message as Extract<M, { type: T }>);
    };
    const onExit = (code: number | null, signal: string | null) => {
      cleanup();
      reject(new Error(`the child exited (${signal ?? `code ${code}`}) before sending "${wanted.join('" or "')}"`));
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

/** Sends `message` and waits for the reply of kind `type` (or of any of the kinds listed). */
export function ask<M extends Message, T extends M['type']>(
  child: ChildProcess,
  message: Message & Record<string, unknown>,
  type: T | readonly T[],
  timeoutMs?: number,
): Promise<Extract<M, { type: T }>> {
  const reply = nextMessage<M, T>(child, type, timeoutMs);
  child.send(message);
  return reply;
}

/** Resolves when the child has exited (at once if it already has). */
export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}
