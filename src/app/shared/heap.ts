/**
 * @module app/shared/heap
 * How much memory this process may use: V8's heap limit (set by --max-old-space-size, else from
 * the machine's memory). Plans and schedules are refused with their size when they would not fit.
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export const heapLimitBytes = (): number => getHeapStatistics().heap_size_limit;

let fullGc: (() => void) | undefined;
/**
 * V8's heap in use plus the memory outside it that its objects hold (Buffers' blocks), bytes: what
 * a full collection can free, both parts (the plan digest's walk leaves its garbage in the second).
 */
const inUseBytes = (): number => {
  const { used_heap_size, external_memory } = getHeapStatistics();
  return used_heap_size + external_memory;
};
/** inUseBytes just after the last collection run here (see collectGarbageIfGrown). */
let usedAfterCollection = 0;
/** The least inUseBytes after any collection run here: what the process holds with no run's data live. */
let leastAfterCollection = Number.POSITIVE_INFINITY;

/**
 * Runs a full garbage collection now. Between two passes over a large results.jsonl (the run and
 * its reports, the reports and the gates' pass), the heap V8 grew for the garbage of one pass is
 * otherwise still there when the next pass starts growing it again, and the peaks add up: a
 * 200,000-request eval's reports phase peaked about 80 MB higher without it. Costs one collection
 * of what is live (tens of ms). V8 exposes `gc` only by flag; setting it here, then taking the
 * function from a fresh context, is the documented way to get it without a command-line flag.
 */
export function collectGarbage(): void {
  if (fullGc === undefined) {
    setFlagsFromString('--expose-gc');
    fullGc = runInNewContext('gc') as () => void;
  }
  fullGc();
  usedAfterCollection = inUseBytes();
  leastAfterCollection = Math.min(leastAfterCollection, usedAfterCollection);
}

/** Growth of the heap since the last collection here past which collectGarbageIfGrown collects. */
export const GC_GROWTH_BYTES = 32 * 1024 * 1024;

/**
 * A full collection, when the heap (with the memory outside it that its objects hold) grew by more
 * than `growth` since the last one run here. Between
 * the steps of a pass whose garbage is large but short-lived (the reports, one after the other:
 * each renders its text whole; the token counter's encoding, whose loading leaves as much garbage
 * again as it keeps), V8 otherwise lets old space grow with it, and the steps' garbage adds up into
 * the peak: a million-row eval's reports peaked at 355–511 MB with ~100 MB live. A small run's
 * steps do not grow it that much and cost nothing: a full collection costs tens of ms however small
 * the garbage (60 ms in a test worker holding the whole module graph, five of them per eval).
 */
export function collectGarbageIfGrown(growth = GC_GROWTH_BYTES): boolean {
  if (inUseBytes() - usedAfterCollection < growth) return false;
  collectGarbage();
  return true;
}

/** What the last collection left live past the least any left, past which collectGarbageIfHeld collects. */
export const GC_HELD_BYTES = 64 * 1024 * 1024;

/**
 * A full collection, when the heap grew by `growth` since the last one run here (as
 * collectGarbageIfGrown), or when that last one left more than `held` live past the least any
 * collection here left: a large run's data, which the reports drop when they return. After them,
 * the run's data and the summaries (some 110 MB past the least at 200,000 distinct questions) were
 * live at their last collection and are garbage now, without the heap having grown since, and the
 * history's database loads next (~50 MB outside V8's heap): a 200,000-question eval peaked there,
 * some 40 MB above `chatbench report DIR`. A small run's last collection leaves the token counter
 * (~30 MB) past the least, under `held`: no collection more for it.
 */
export function collectGarbageIfHeld(growth = GC_GROWTH_BYTES, held = GC_HELD_BYTES): boolean {
  if (usedAfterCollection - leastAfterCollection < held) return collectGarbageIfGrown(growth);
  collectGarbage();
  return true;
}

/** Records between two full collections during a pass over results.jsonl (see collectGarbageEvery). */
export const GC_EVERY_RECORDS = 25_000;

/**
 * A counter that runs a full collection every `every` calls. A pass over results.jsonl parses and
 * validates every record (two short-lived copies of each); V8 lets old space grow with what a
 * scavenge promoted of them for as long as the process has memory to spare, so a pass's peak RSS
 * grew with the run's size though what it keeps does not. Collecting every 25,000 records (tens of
 * ms each, about 1% of the pass) holds the peak to what is live plus one stretch's garbage.
 */
export function collectGarbageEvery(every = GC_EVERY_RECORDS, collect: () => void = collectGarbage): () => void {
  let count = 0;
  return () => {
    count += 1;
    if (count % every === 0) collect();
  };
}

/** Old space's growth past what a full collection left live, percent, while a pass runs under withTightHeap. */
export const REPORTS_HEAP_GROWING_PERCENT = 20;

let tightened = 0;

/**
 * Runs `work` with V8's old space held to `percent` growth past what the last full collection left
 * live, then puts V8's own heuristic back (`--heap-growing-percent=0`). V8 otherwise lets old space
 * grow to several times what is live before its next full collection while memory is plentiful:
 * the reports' steps read and render records, and the dataset's pass parses and validates every
 * row, whose garbage outlives a scavenge; a million-row eval's reports (~120 MB live: the token
 * encoding, the viewer's records, the summaries) peaked at 430–510 MB RSS with it. The cost is
 * more full collections of a small heap in those passes, never while requests are measured.
 * Nested calls keep it until the outermost returns.
 * `setFlags` is V8's (tests pass their own).
 */
export async function withTightHeap<T>(
  work: () => Promise<T>,
  { percent = REPORTS_HEAP_GROWING_PERCENT, setFlags = setFlagsFromString } = {},
): Promise<T> {
  if (tightened++ === 0) setFlags(`--heap-growing-percent=${percent}`);
  try {
    return await work();
  } finally {
    if (--tightened === 0) setFlags('--heap-growing-percent=0');
  }
}
