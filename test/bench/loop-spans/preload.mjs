/**
 * @module bench/loop-spans/preload
 * A diagnostic preload for a chatbench process (`node --import ./test/bench/loop-spans/preload.mjs
 * bin/chatbench.js load …`; test/bench/loop-spans.bench.ts runs it): ticks every millisecond on
 * the main thread, logs each gap between ticks in which the thread ran more than
 * LOOP_SPANS_CPU_MS (default 3) of its own CPU or stood still for more than LOOP_SPANS_WALL_MS
 * (default 6), split into CPU, run-queue wait and blocked time (gaps.mjs), and every GC with its
 * kind (a PerformanceObserver). Written as JSON lines to LOOP_SPANS_OUT when the process exits.
 * Linux only (schedstat); elsewhere it logs GCs alone. Its own cost: one pread a millisecond.
 */
import { Buffer } from 'node:buffer';
import { closeSync, openSync, readSync, writeFileSync } from 'node:fs';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { setInterval } from 'node:timers';
import { createGapRecorder, parseSchedstat } from './gaps.mjs';

const out = process.env.LOOP_SPANS_OUT ?? `loop-spans-${process.pid}.jsonl`;
const lines = [];
const t0 = performance.now();
// The origin on the wall clock and on the monotonic clock a --cpu-prof profile uses (µs).
lines.push({ k: 'origin', epoch: performance.timeOrigin + t0, mono_us: Number(process.hrtime.bigint() / 1000n) });

let fd = -1;
try {
  fd = openSync(`/proc/self/task/${process.pid}/schedstat`, 'r');
} catch {
  lines.push({ k: 'note', text: 'no schedstat: GCs only' });
}
if (fd >= 0) {
  const bytes = Buffer.allocUnsafeSlow(128);
  const recorder = createGapRecorder(
    { cpuMs: Number(process.env.LOOP_SPANS_CPU_MS ?? 3), wallMs: Number(process.env.LOOP_SPANS_WALL_MS ?? 6) },
    (gap) =>
      lines.push({
        k: 'gap',
        at: round(gap.at - t0),
        wall: round(gap.wall),
        cpu: round(gap.cpu),
        wait: round(gap.wait),
      }),
  );
  const tick = () => {
    const stat = parseSchedstat(bytes, readSync(fd, bytes, 0, bytes.length, 0));
    if (stat !== null) recorder.tick(performance.now(), stat.cpuMs, stat.waitMs);
  };
  tick();
  setInterval(tick, 1).unref();
}

const KINDS = { 1: 'scavenge', 2: 'minor-mark-compact', 4: 'mark-compact', 8: 'incremental', 16: 'weak-callbacks' };
new PerformanceObserver((list) => {
  for (const e of list.getEntries())
    lines.push({
      k: 'gc',
      at: round(e.startTime - t0),
      dur: round(e.duration),
      kind: KINDS[e.detail?.kind] ?? String(e.detail?.kind),
      flags: e.detail?.flags ?? 0,
    });
}).observe({ entryTypes: ['gc'] });

process.on('exit', () => {
  if (fd >= 0) closeSync(fd);
  writeFileSync(out, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
});

function round(ms) {
  return Math.round(ms * 100) / 100;
}
