/**
 * @module checks/runner
 * `--checks FILE.mjs`: the user's own checks, each a named export `(ctx) => boolean | number |
 * { pass?, score?, reason? }` that becomes a figure of that name. They run in a worker thread, one
 * call at a time, each with a time limit: a check that throws, rejects, returns something else, or
 * runs past the limit (even in an endless loop) is that check's error on that record — the worker is
 * replaced and the run goes on. The worker is boxed in: its heap is capped (a check that allocates
 * past it is that check's error, not the process's), its environment holds only a few harmless
 * variables (never a token: CHATBENCH_TOKEN and every other secret stay in the main thread), its
 * argv holds nothing of chatbench's command line, and its stdout and stderr are captured (never
 * mixed into chatbench's own output or `--json`; their last lines are shown when loading fails).
 * Loading is checked before anything is sent: a file that is missing,
 * fails to import, exports no function, or names a check after a figure chatbench already has, is
 * bad input (exit 2).
 */
import { Worker } from 'node:worker_threads';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { InputError } from '../errors.js';
import type { CheckResult } from '../records/quality.js';
import type { CheckContext } from './context.js';
import { toCheckResult } from './result.js';
import { WORKER_SOURCE } from './worker-source.js';

/** A check's name must be a figure name the gate grammar reads. */
const FIGURE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** How long loading the module may take. */
const LOAD_TIMEOUT_MS = 15_000;
/** The heap a checks worker may use, MB: far above what a check on one answer needs. */
export const CHECKS_HEAP_MB = 256;
/**
 * The time all the checks of one answer may take together: a module of many slow checks, each
 * under its own limit, must not hold every record for minutes. A check started when little is left
 * gets only what is left; one not started when nothing is is that check's error.
 */
export const CHECKS_TOTAL_MS = 30_000;
/** The variables a check may read: a locale, a time zone, where temporary files go; no secret. */
const WORKER_ENV_KEYS = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR'] as const;
/** The worker's output kept (its tail) for a load error's message. */
const OUTPUT_TAIL_BYTES = 2048;

export interface CheckRunner {
  /** The file as the user named it. */
  readonly file: string;
  /** The checks (named exported functions), sorted by name (a module's exports have no other order). */
  readonly names: readonly string[];
  /** Every check on one answer; never rejects. */
  run(ctx: CheckContext): Promise<Record<string, CheckResult>>;
  /** Ends the worker. */
  close(): Promise<void>;
}

export interface CheckOptions {
  /** As the user gave it; resolved against `cwd`. */
  path: string;
  cwd: string;
  /** The time one check may take on one answer. */
  timeoutMs: number;
  /** Figure names the checks may not take (the catalogue's). */
  reserved: ReadonlySet<string>;
  /** The process's environment, of which the worker gets only the harmless variables; default none. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The worker's heap cap, MB; default CHECKS_HEAP_MB. */
  heapMb?: number;
  /** The time every check on one answer may take together; default CHECKS_TOTAL_MS. */
  totalMs?: number;
}

/** How one call ended; `fatal`: the worker is gone (crashed, exited) and must be replaced. */
interface CallReply {
  ok: boolean;
  value?: unknown;
  error?: string;
  fatal?: boolean;
}

type Reply =
  | { type: 'ready'; names: string[]; hasDefault: boolean }
  | { type: 'load-error'; error: string }
  | { type: 'result'; id: number; ok: boolean; value?: unknown; error?: string };

interface Running {
  worker: Worker;
  /** The last bytes the worker wrote to its stdout and stderr. */
  output(): string;
  ready: Promise<{ names: string[]; hasDefault: boolean }>;
  /** The call waiting for its reply. */
  pending: { id: number; settle: (reply: CallReply) => void } | undefined;
}

/** The worker's environment: the harmless variables of this process's, nothing else. */
function workerEnv(from: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of WORKER_ENV_KEYS) {
    const value = from[key];
    if (value !== undefined) env[key] = value;
  }
  return env;
}

function spawn(file: string, processEnv: Readonly<Record<string, string | undefined>>, heapMb: number): Running {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { file },
    env: workerEnv(processEnv),
    argv: [],
    execArgv: [],
    stdout: true,
    stderr: true,
    resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: Math.min(32, heapMb) },
  });
  worker.unref();
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-OUTPUT_TAIL_BYTES);
  };
  worker.stdout.on('data', keep);
  worker.stderr.on('data', keep);
  const running: Running = { worker, output: () => tail.trim(), ready: undefined as never, pending: undefined };
  running.ready = new Promise((resolveReady, rejectReady) => {
    const timer = setTimeout(
      () => rejectReady(new Error(`it did not load within ${LOAD_TIMEOUT_MS / 1000} s`)),
      LOAD_TIMEOUT_MS,
    );
    worker.on('message', (reply: Reply) => {
      if (reply.type === 'ready') {
        clearTimeout(timer);
        resolveReady(reply);
      } else if (reply.type === 'load-error') {
        clearTimeout(timer);
        rejectReady(new Error(reply.error));
      } else if (running.pending?.id === reply.id) {
        const { settle } = running.pending;
        running.pending = undefined;
        settle(reply);
      }
    });
    const gone = (why: string) => {
      clearTimeout(timer);
      rejectReady(new Error(why));
      const pending = running.pending;
      running.pending = undefined;
      pending?.settle({ ok: false, error: why, fatal: true });
    };
    worker.on('error', (error) => {
      const outOfMemory = (error as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY';
      gone(outOfMemory ? `ran out of the checks' ${heapMb} MB heap` : `the check crashed its worker: ${error.message}`);
    });
    worker.on('exit', (code) => gone(`the worker exited (code ${code})`));
  });
  running.ready.catch(() => undefined);
  return running;
}

/** Loads FILE's checks (InputError, exit 2, when they cannot be used) and returns their runner. */
export async function loadChecks(options: CheckOptions): Promise<CheckRunner> {
  const full = resolve(options.cwd, options.path);
  const where = `--checks ${options.path}`;
  if (
    !(await stat(full).then(
      (s) => s.isFile(),
      () => false,
    ))
  )
    throw new InputError([`${where}: no such file`]);
  let running: Running | undefined = spawn(full, options.env ?? {}, options.heapMb ?? CHECKS_HEAP_MB);
  let loaded: { names: string[]; hasDefault: boolean };
  try {
    loaded = await running.ready;
  } catch (error) {
    await running.worker.terminate();
    const output = running.output();
    throw new InputError(
      [`${where}: cannot load it: ${(error as Error).message}${output === '' ? '' : `; its output: ${output}`}`],
      { hint: 'an ES module (.mjs) exporting named functions (ctx) => boolean | number | { pass, score, reason }' },
    );
  }
  const problems: string[] = [];
  if (loaded.names.length === 0)
    problems.push(
      `${where}: exports no named function${loaded.hasDefault ? ' (a default export is not a check: name it, e.g. export function cites_policy(ctx) {...})' : ''}`,
    );
  for (const name of loaded.names) {
    if (!FIGURE_NAME.test(name))
      problems.push(
        `${where}: check "${name}": a check's name must be letters, digits and _ (it becomes a figure name)`,
      );
    else if (options.reserved.has(name))
      problems.push(`${where}: check "${name}" has the name of a figure chatbench reports already; rename the export`);
  }
  if (problems.length > 0) {
    await running.worker.terminate();
    throw new InputError(problems);
  }
  const names = loaded.names;
  let nextId = 0;
  let queue: Promise<unknown> = Promise.resolve();

  /** One call, with the time limit; a timeout or a crash retires the worker (the next call starts another). */
  const callOne = async (name: string, ctx: CheckContext, timeoutMs: number, why: string): Promise<CheckResult> => {
    running ??= spawn(full, options.env ?? {}, options.heapMb ?? CHECKS_HEAP_MB);
    const current = running;
    try {
      await current.ready;
    } catch (error) {
      running = undefined;
      return { score: null, reason: null, error: `the checks could not be loaded again: ${(error as Error).message}` };
    }
    const id = (nextId += 1);
    let timer: NodeJS.Timeout | undefined;
    const reply = await new Promise<CallReply>((settle) => {
      current.pending = { id, settle };
      timer = setTimeout(() => settle({ ok: false, error: why }), timeoutMs);
      try {
        current.worker.postMessage({ id, name, ctx });
      } catch (error) {
        settle({ ok: false, error: `could not pass the context: ${(error as Error).message}` });
      }
    });
    clearTimeout(timer);
    if (!reply.ok && current.pending?.id === id) {
      // Timed out: the worker may be stuck in the check; replace it.
      current.pending = undefined;
      if (running === current) running = undefined;
      void current.worker.terminate();
    } else if (reply.fatal === true && running === current) running = undefined;
    return reply.ok ? toCheckResult(reply.value) : { score: null, reason: null, error: reply.error ?? 'failed' };
  };

  return {
    file: options.path,
    names,
    run(ctx) {
      const result = queue.then(async () => {
        const out: Record<string, CheckResult> = {};
        const totalMs = options.totalMs ?? CHECKS_TOTAL_MS;
        const started = performance.now();
        const spent = `ran past the ${totalMs} ms the checks of one answer may take together`;
        let exhausted = false;
        for (const name of names) {
          const left = totalMs - (performance.now() - started);
          if (exhausted || left <= 0) {
            out[name] = { score: null, reason: null, error: `not run: the checks before it ${spent}` };
          } else if (left < options.timeoutMs) {
            out[name] = await callOne(name, ctx, left, spent);
            exhausted = out[name].error === spent;
          } else {
            out[name] = await callOne(name, ctx, options.timeoutMs, `timed out after ${options.timeoutMs} ms`);
          }
        }
        return out;
      });
      queue = result.catch(() => undefined);
      return result;
    },
    async close() {
      await queue;
      if (running !== undefined) await running.worker.terminate();
      running = undefined;
    },
  };
}
