/**
 * @module app/heap
 * How much memory this process may use: V8's heap limit (set by --max-old-space-size, else from
 * the machine's memory). Plans and schedules are refused with their size when they would not fit.
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export const heapLimitBytes = (): number => getHeapStatistics().heap_size_limit;

let fullGc: (() => void) | undefined;

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
}
