/**
 * @module bench/loop-spans/preload
 * A diagnostic preload for a chatbench process (`node --import ./test/bench/loop-spans/preload.mjs
 * bin/chatbench.js load …`; test/bench/loop-spans.bench.ts runs it): ticks every millisecond on
 * the main thread, logs each gap between ticks in which the thread ran more than
 * LOOP_SPANS_CPU_MS (default 3) of its own CPU or stood still for more than LOOP_SPANS_WALL_MS
 * (default 6), split into CPU, run-queue wait and blocked time (gaps.mjs), and every GC with its
 * kind (a PerformanceObserver). After a gap in which it waited over 2 ms for a core, it logs who held
 * the cores (held.mjs): the CPU of chatbench's threads and of the simulator's (LOOP_SPANS_PEER_PID)
 * by group, and the rest of the machine's, since the last snapshot (every 10 ms). Written as JSON
 * lines to LOOP_SPANS_OUT when the process exits. Linux only (schedstat); elsewhere it logs GCs
 * alone. Its own cost: one pread a millisecond, one per thread every 10 ms.
 */
import { Buffer } from 'node:buffer';
import { closeSync, openSync, readdirSync, readSync, writeFileSync } from 'node:fs';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { setInterval } from 'node:timers';
import { createGapRecorder, parseSchedstat } from './gaps.mjs';
import { GROUPS, heldBetween, ownGroup, parseStatBusy } from './held.mjs';

/** A wait for a core over this long (ms, in one gap) gets a line saying who held the cores. */
const WAIT_MS = 2;
const SNAPSHOT_EVERY = 10;
const DISCOVER_EVERY = 1000;

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
  const held = createHeldWatch(bytes);
  let lastWait = 0;
  const tick = () => {
    const stat = parseSchedstat(bytes, readSync(fd, bytes, 0, bytes.length, 0));
    if (stat === null) return;
    const now = performance.now();
    const waited = stat.waitMs - lastWait;
    lastWait = stat.waitMs;
    recorder.tick(now, stat.cpuMs, stat.waitMs);
    held.tick(now, waited);
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

/**
 * Snapshots every thread's CPU by group every SNAPSHOT_EVERY ticks (threads looked for every
 * DISCOVER_EVERY), and right after a gap that waited: then it logs what ran since the last one.
 * A thread started inside a gap is counted from the next snapshot on (its CPU before that shows
 * as the machine's).
 * @param {Buffer} bytes a buffer to read into, shared with the tick
 */
function createHeldWatch(bytes) {
  const peer = Number(process.env.LOOP_SPANS_PEER_PID ?? NaN);
  const threads = new Map(); // "pid/tid" → { fd, group }
  const atStart = listTasks(process.pid)
    .filter((tid) => tid !== process.pid)
    .sort((a, b) => a - b);
  const poolSize = Number(process.env.UV_THREADPOOL_SIZE ?? 4);
  const statFd = openSync('/proc/stat', 'r');
  const statBytes = Buffer.allocUnsafeSlow(256);
  const discover = () => {
    for (const [pid, own] of [
      [process.pid, true],
      [peer, false],
    ]) {
      if (!Number.isInteger(pid)) continue;
      for (const tid of listTasks(pid)) {
        const key = `${pid}/${tid}`;
        if (threads.has(key)) continue;
        const group = own ? ownGroup(tid, pid, atStart, poolSize) : tid === pid ? 4 : 5;
        try {
          threads.set(key, { fd: openSync(`/proc/${pid}/task/${tid}/schedstat`, 'r'), group });
        } catch {
          // the thread ended between the listing and the open
        }
      }
    }
  };
  const snapshot = (t) => {
    const groups = GROUPS.map(() => 0);
    for (const thread of threads.values()) {
      let stat = null;
      try {
        stat = parseSchedstat(bytes, readSync(thread.fd, bytes, 0, bytes.length, 0));
      } catch {
        // an ended thread: its last CPU is lost to its group and shows as the machine's
      }
      if (stat !== null) groups[thread.group] += stat.cpuMs;
    }
    return { t, machineMs: parseStatBusy(statBytes, readSync(statFd, statBytes, 0, statBytes.length, 0)) ?? 0, groups };
  };
  let ticks = 0;
  discover();
  let last = snapshot(performance.now());
  return {
    /** `waitedMs`: the main thread's wait for a core since the last tick. */
    tick(t, waitedMs) {
      ticks++;
      const waited = waitedMs > WAIT_MS;
      if (!waited && ticks % SNAPSHOT_EVERY !== 0) return;
      if (!waited && ticks % DISCOVER_EVERY === 0) discover(); // not inside a bracket: `last` must hold the same threads
      const now = snapshot(t);
      if (waited) {
        const h = heldBetween(last, now);
        lines.push({
          k: 'held',
          at: round(last.t - t0),
          wait: round(waitedMs),
          span: round(h.span),
          groups: h.groups.map(round),
          other: round(h.other),
        });
      }
      last = now;
    },
  };
}

function listTasks(pid) {
  try {
    return readdirSync(`/proc/${pid}/task`).map(Number);
  } catch {
    return [];
  }
}

process.on('exit', () => {
  if (fd >= 0) closeSync(fd);
  writeFileSync(out, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
});

function round(ms) {
  return Math.round(ms * 100) / 100;
}
