/**
 * @module util/limits
 * The documented maximum of every count, rate and duration a run takes (docs/limits.md), and the
 * memory a plan would need. Checked before anything is sent: a value past its limit is a usage
 * error (exit 2), never a hang, a heap exhaustion or a timer that fires at once. Pure.
 */

/** Node's timers hold at most 2^31 − 1 ms (about 24.8 days); a longer delay fires at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

const DAY_MS = 86_400_000;

/** Every limit, by what it bounds. docs/limits.md lists these values. */
export const LIMITS = {
  /** Requests in flight at once: eval/load --concurrency (users), --max-in-flight, --connections, capacity --start-users. */
  inFlight: 10_000,
  /** eval --repeat. */
  repeat: 1_000,
  /** --retries (extra attempts of one request). */
  retries: 10,
  /** Requests of one eval plan (questions × sets × modes × repeats), before sharding. */
  evalPlan: 1_000_000,
  /** Arrivals per second of a load schedule (every shard together): --rate, stage targets, capacity --start-rate. */
  rate: 100_000,
  /** Requests of one load run: --requests, and the arrivals a schedule plans (every shard together). */
  loadRequests: 10_000_000,
  /** How long a load run or a capacity search may last: --duration, the sum of --stages, --max-duration. */
  runMs: 7 * DAY_MS,
  /** How far ahead --start-at may be. */
  startAheadMs: 7 * DAY_MS,
  /** Any other duration flag (--timeout, --grace, ...): what a timer can wait. */
  durationMs: MAX_TIMER_MS,
  /** Shards of one plan (--shard i/N, --shards N). */
  shards: 1_000,
  /** capacity --max-steps. */
  capacitySteps: 100,
  /** A dataset, models, gates or URL file. */
  inputFileBytes: 256 * 1024 * 1024,
  /** --max-answer-bytes: what a record's answer may hold (records/bounds.ts RECORD_BOUNDS.answerChars). */
  answerBytes: 64 * 1024 * 1024,
  /** A token file (--token-file). */
  tokenFileBytes: 1024 * 1024,
  /**
   * A line of a run file read back (results.jsonl, reviews.jsonl, labels.jsonl), and a run's
   * manifest.json or summary.json whole: far above any record chatbench writes, far below what
   * would exhaust the heap when parsed. The default of --max-run-line-bytes: readers take
   * runFileLineBytes(), the process's setting.
   */
  runFileLineBytes: 64 * 1024 * 1024,
} as const;

/** The flag (and config key `max-run-line-bytes`) that sets the run-file line cap; messages name it. */
export const RUN_LINE_FLAG = '--max-run-line-bytes';

/**
 * The run-file line cap of this process. One setting, set by the CLI once per command (cli/main)
 * before anything is read, rather than a parameter threaded through every reader of a run file.
 */
let runLineCap: number = LIMITS.runFileLineBytes;

/** The longest line (and JSON document) of a run file this process reads: --max-run-line-bytes, default LIMITS.runFileLineBytes. */
export const runFileLineBytes = (): number => runLineCap;

/** Sets the cap for every run-file reader of this process (cli/main; tests restore the default). */
export function setRunFileLineBytes(bytes: number = LIMITS.runFileLineBytes): void {
  runLineCap = bytes;
}

/**
 * Bytes of memory one planned request holds until the run ends (measured: about 360 bytes for an
 * eval plan entry with its body, about 460 for a load record kept for the load figures; rounded up).
 */
export const BYTES_PER_PLANNED_REQUEST = 1024;

/** `1.2 GB`, `340 MB`, `12 KB`: a size for a message. */
export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB', 'PB'] as const;
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return unit === 0 ? `${Math.round(value)} bytes` : `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** A count with thousands separators, the same on every machine. */
export const formatCount = (n: number): string =>
  Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : String(n);

/**
 * Why `requests` planned requests cannot be held in `heapBytes` of memory (half of it is the
 * budget: the run itself needs the rest), or undefined when they can. `what` names the plan
 * ("the plan", "the schedule") and `how` says how it was counted.
 */
export function planTooLarge(
  requests: number,
  limit: number,
  heapBytes: number,
  what: string,
  how: string,
): string | undefined {
  if (requests > limit)
    return `${what} holds ${formatCount(requests)} requests (${how}), over the limit of ${formatCount(limit)}`;
  const needed = requests * BYTES_PER_PLANNED_REQUEST;
  const budget = heapBytes / 2;
  if (needed > budget) {
    return `${what} holds ${formatCount(requests)} requests (${how}) and would need about ${formatBytes(needed)} of memory, more than the ${formatBytes(budget)} this process may use (half its heap)`;
  }
  return undefined;
}

/** `7 days`, `36 h`, `90 s`, `500 ms`: a duration for a message. */
export function formatDuration(ms: number): string {
  if (ms >= 2 * DAY_MS) return `${Number((ms / DAY_MS).toFixed(1))} days`;
  if (ms >= 2 * 3_600_000) return `${Number((ms / 3_600_000).toFixed(1))} h`;
  if (ms >= 2 * 60_000) return `${Number((ms / 60_000).toFixed(1))} min`;
  if (ms >= 1000) return `${Number((ms / 1000).toFixed(3))} s`;
  return `${Number(ms.toFixed(3))} ms`;
}
