/**
 * @module bench/loop-spans/held
 * Who held the cores while the measuring thread waited for one (plain JavaScript, like gaps.mjs:
 * `node --import` loads it untransformed). The preload sums the CPU of every thread of chatbench and
 * of the simulator by group, and the machine's busy time from /proc/stat, every 10 ms and right
 * after a gap; the difference across a gap says which group ran while the main thread did not.
 */

/** The groups, in the order of a snapshot's `groups`. */
export const GROUPS = Object.freeze([
  // chatbench's main thread: the measuring thread itself.
  'main',
  // Node's platform: V8's helper threads (concurrent marking, compiling), the delayed-task
  // scheduler, the inspector's signal thread.
  'platform',
  // libuv's pool: fs, DNS lookups, zlib, crypto's async work.
  'libuv pool',
  // threads started after the preload: worker threads.
  'later',
  'sim main',
  'sim other',
]);

/**
 * The group (index in GROUPS) of one of chatbench's threads. All are named "node" on Node 20, so the
 * order they were made in tells them apart: the platform's come first, and the ES module loader has
 * already started libuv's pool (UV_THREADPOOL_SIZE threads, 4 by default) when the preload runs, so
 * the last `poolSize` of the threads already there are the pool's; any made after are later ones.
 * @param {number} tid
 * @param {number} pid the main thread's id
 * @param {readonly number[]} atStart the thread ids there when the preload ran, ascending
 * @param {number} poolSize
 * @returns {number}
 */
export function ownGroup(tid, pid, atStart, poolSize) {
  if (tid === pid) return 0;
  const rank = atStart.indexOf(tid);
  if (rank < 0) return 3;
  return rank >= atStart.length - poolSize ? 2 : 1;
}

/** USER_HZ: /proc/stat counts in hundredths of a second on Linux whatever the kernel's HZ. */
const JIFFY_MS = 10;

/**
 * The machine's busy time in ms from /proc/stat's first line ("cpu  user nice system idle iowait irq
 * softirq steal …"): all but idle and iowait. Reads bytes, like parseSchedstat, without a string.
 * @param {Uint8Array} bytes
 * @param {number} length
 * @returns {number | null}
 */
export function parseStatBusy(bytes, length) {
  if (length < 4 || bytes[0] !== 99 || bytes[1] !== 112 || bytes[2] !== 117 || bytes[3] !== 32) return null; // "cpu "
  let field = 0;
  let value = 0;
  let digits = 0;
  let busy = 0;
  for (let i = 4; i <= length; i++) {
    const c = i < length ? bytes[i] : 10;
    if (c >= 48 && c <= 57) {
      value = value * 10 + (c - 48);
      digits++;
      continue;
    }
    if (digits > 0) {
      field++;
      // 1 user, 2 nice, 3 system, 4 idle, 5 iowait, 6 irq, 7 softirq, 8 steal; guest time is in user.
      if (field !== 4 && field !== 5 && field <= 8) busy += value;
      value = 0;
      digits = 0;
    }
    if (c === 10) break;
  }
  return field >= 4 ? busy * JIFFY_MS : null;
}

/**
 * @typedef {{ t: number, machineMs: number, groups: readonly number[] }} Snapshot
 * `t` on the tick clock (ms), `machineMs` the machine's busy time, `groups` each group's CPU (ms).
 */

/**
 * What ran between two snapshots: each group's CPU and the rest of the machine's busy time (other
 * processes: the other work on a shared machine). /proc/stat counts in 10 ms steps, so `other` is
 * rough for one gap and fair summed over many; it is never below 0.
 * @param {Snapshot} before
 * @param {Snapshot} after
 * @returns {{ span: number, groups: number[], other: number }}
 */
export function heldBetween(before, after) {
  const groups = after.groups.map((cpu, i) => Math.max(0, cpu - (before.groups[i] ?? 0)));
  const ours = groups.reduce((a, b) => a + b, 0);
  return { span: after.t - before.t, groups, other: Math.max(0, after.machineMs - before.machineMs - ours) };
}
