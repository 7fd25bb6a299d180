/**
 * @module bench/load/gc-marker
 * Preloaded by gc-trace.ts: both tools read process.cpuUsage() as their measured span starts and
 * ends (tool-child.ts), so its first and second calls mark the span, on stderr, on the same clock
 * as --trace-gc-nvp's lines (ms since the process started, within a few ms); and the young
 * generation's size is printed as the span ends.
 */
import { getHeapSpaceStatistics } from 'node:v8';

const cpuUsage = process.cpuUsage.bind(process);
let calls = 0;
process.cpuUsage = (previous) => {
  calls += 1;
  if (calls <= 2) {
    const space = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
    process.stderr.write(`GC-MARK ${performance.now()} NEW-SPACE ${space?.space_size ?? 0}\n`);
  }
  return cpuUsage(previous);
};
