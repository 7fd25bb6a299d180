/**
 * @module bench/loop-spans/summary
 * Reads what preload.mjs logged over one `chatbench load` run and counts, inside the run's measured
 * window (generator.json: from `started_at` for `duration_ms`, the loop-delay monitor's span), the
 * gaps where the main thread ran over 5 and 10 ms of its own CPU, the GCs by kind with a histogram
 * of their pauses, and where the long wall gaps went (own CPU, run-queue wait, blocked).
 */
import type { Gap } from './gaps.mjs';

export type LoggedLine =
  | { readonly k: 'origin'; readonly epoch: number; readonly mono_us: number }
  | ({ readonly k: 'gap' } & Gap)
  | { readonly k: 'gc'; readonly at: number; readonly dur: number; readonly kind: string; readonly flags?: number }
  | { readonly k: 'note'; readonly text: string }
  | {
      readonly k: 'held';
      readonly at: number;
      /** The main thread's wait for a core that this bracket is around (ms). */
      readonly wait: number;
      readonly span: number;
      /** CPU (ms) by held.mjs's GROUPS. */
      readonly groups: readonly number[];
      readonly other: number;
    };

/** What ran while the main thread waited for a core, summed over the run's waits (preload's `held` lines). */
export interface Held {
  /** Waits over 2 ms that were bracketed, and the brackets' summed wall time (ms). */
  readonly count: number;
  readonly span: number;
  /** CPU (ms) by held.mjs's GROUPS, then the rest of the machine's busy time. */
  readonly groups: readonly number[];
  readonly other: number;
  /**
   * The waits in whose bracket chatbench's other threads and the simulator ran more than other
   * processes: the waits a machine with nothing else on it would still have. How many, and the longest.
   */
  readonly ours: { readonly count: number; readonly maxWait: number };
}

export interface RunSummary {
  /** Gaps with the thread's own CPU over 3, 5 and 10 ms. */
  readonly cpuOver: { readonly 3: number; readonly 5: number; readonly 10: number };
  /**
   * Of those over 5 ms, the ones that waited less for a core than they ran: a long turn of the
   * loop's own. The others mostly catch up on what piled up while the scheduler held the thread
   * off (schedstat adds a wait when the thread runs again, so the split between two gaps is rough).
   */
  readonly ownOver5: number;
  /** GCs by kind; a mark-compact that asked to collect all external memory (and not all garbage) is the memory reducer's. */
  readonly gcByKind: Readonly<Record<string, number>>;
  /** GC pauses (wall, ms) by bucket: [0,1) [1,2) [2,5) [5,10) [10,20) [20,∞). */
  readonly gcPauses: readonly number[];
  /** Wall gaps over `wallMs`: how many, and their time split (ms). */
  readonly longGaps: { readonly count: number; readonly cpu: number; readonly wait: number; readonly blocked: number };
  /** Long gaps in which the thread was blocked over 5 ms (neither running nor waiting for a core). */
  readonly blockedOver5: number;
  readonly held: Held;
}

export const PAUSE_BUCKETS = [0, 1, 2, 5, 10, 20] as const;
/** v8::GCCallbackFlags: kGCCallbackFlagCollectAllAvailableGarbage, kGCCallbackFlagCollectAllExternalMemory. */
const ALL_GARBAGE = 16;
const ALL_EXTERNAL = 32;
const kindOf = (gc: { kind: string; flags?: number }) =>
  gc.kind === 'mark-compact' && ((gc.flags ?? 0) & (ALL_GARBAGE | ALL_EXTERNAL)) === ALL_EXTERNAL
    ? 'mark-compact (memory reducer)'
    : gc.kind;
/** The tick's own period: a gap's wall time beyond it is what the loop stood still. */
const TICK_MS = 1;

/** `window` is [from, to] in ms on the preload's clock (see windowOf). */
export function summarise(lines: readonly LoggedLine[], window: readonly [number, number], wallMs = 6): RunSummary {
  const inside = (at: number) => at >= window[0] && at <= window[1];
  const gaps = lines.filter((l): l is { k: 'gap' } & Gap => l.k === 'gap' && inside(l.at));
  const gcs = lines.filter((l): l is Extract<LoggedLine, { k: 'gc' }> => l.k === 'gc' && inside(l.at));
  const over = (ms: number) => gaps.filter((g) => g.cpu > ms).length;
  const gcByKind: Record<string, number> = {};
  for (const gc of gcs) gcByKind[kindOf(gc)] = (gcByKind[kindOf(gc)] ?? 0) + 1;
  const gcPauses = PAUSE_BUCKETS.map(
    (from, i) => gcs.filter((gc) => gc.dur >= from && gc.dur < (PAUSE_BUCKETS[i + 1] ?? Infinity)).length,
  );
  const long = gaps.filter((g) => g.wall > wallMs);
  const blocked = (g: Gap) => Math.max(0, g.wall - TICK_MS - g.cpu - g.wait);
  const sum = (f: (g: Gap) => number) => Math.round(long.reduce((a, g) => a + f(g), 0));
  return {
    cpuOver: { 3: over(3), 5: over(5), 10: over(10) },
    ownOver5: gaps.filter((g) => g.cpu > 5 && g.wait < g.cpu).length,
    gcByKind,
    gcPauses,
    longGaps: { count: long.length, cpu: sum((g) => g.cpu), wait: sum((g) => g.wait), blocked: sum(blocked) },
    blockedOver5: long.filter((g) => blocked(g) > 5).length,
    held: heldIn(lines, inside),
  };
}

function heldIn(lines: readonly LoggedLine[], inside: (at: number) => boolean): Held {
  const held = lines.filter((l): l is Extract<LoggedLine, { k: 'held' }> => l.k === 'held' && inside(l.at));
  const width = Math.max(0, ...held.map((h) => h.groups.length));
  // group 0 is the main thread itself: what it ran in the bracket came after its wait
  const ours = held.filter((h) => h.groups.slice(1).reduce((a, b) => a + b, 0) > h.other);
  const total = (f: (h: (typeof held)[number]) => number) => Math.round(held.reduce((a, h) => a + f(h), 0));
  return {
    count: held.length,
    span: total((h) => h.span),
    groups: Array.from({ length: width }, (_, i) => total((h) => h.groups[i] ?? 0)),
    other: total((h) => h.other),
    ours: { count: ours.length, maxWait: Math.max(0, ...ours.map((h) => h.wait)) },
  };
}

/** The run's measured window on the preload's clock, from generator.json's `started_at` and `duration_ms`. */
export function windowOf(
  lines: readonly LoggedLine[],
  generator: { readonly started_at: string; readonly duration_ms: number },
): [number, number] {
  const origin = lines.find((l): l is Extract<LoggedLine, { k: 'origin' }> => l.k === 'origin');
  if (origin === undefined) throw new Error('no origin line: not a loop-spans log');
  const from = Date.parse(generator.started_at) - origin.epoch;
  return [from, from + generator.duration_ms];
}
