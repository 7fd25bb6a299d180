/**
 * @module bench/loop-spans/gaps
 * The pure core of the loop-spans preload (plain JavaScript: `node --import` loads it into the CLI
 * untransformed). A tick every millisecond reads the main thread's schedstat; each gap between two
 * ticks is split into the thread's own CPU, its wait on a run queue (another thread held the core)
 * and the rest: blocked, neither running nor runnable (a futex on a GC helper thread, a syscall).
 */

/**
 * Reads `/proc/self/task/<tid>/schedstat` ("<ns on cpu> <ns waiting on a run queue> <slices>\n")
 * from its bytes, in ms, without a string or an array: the preload must allocate nothing per tick
 * (a 64 KiB Buffer per readFileSync is external memory V8 counts against the old generation's
 * limit: it caused mark-compacts of its own).
 * @param {Uint8Array} bytes
 * @param {number} length
 * @returns {{ cpuMs: number, waitMs: number } | null}
 */
export function parseSchedstat(bytes, length) {
  let cpu = 0;
  let wait = 0;
  let field = 0;
  let digits = 0;
  for (let i = 0; i < length && field < 2; i++) {
    const c = bytes[i];
    if (c >= 48 && c <= 57) {
      if (field === 0) cpu = cpu * 10 + (c - 48);
      else wait = wait * 10 + (c - 48);
      digits++;
    } else if (digits > 0) {
      field++;
      digits = 0;
    } else return null;
  }
  if (field < 1 || (field === 1 && digits === 0)) return null;
  return { cpuMs: cpu / 1e6, waitMs: wait / 1e6 };
}

/**
 * Keeps the gaps between ticks worth logging: the thread's own CPU over `cpuMs`, or a wall time
 * over `wallMs`. `at` is the gap's start on the tick clock.
 * @param {{ cpuMs: number, wallMs: number }} thresholds
 * @param {(gap: { at: number, wall: number, cpu: number, wait: number }) => void} keep
 */
export function createGapRecorder(thresholds, keep) {
  // Three numbers, not an object per tick: nothing allocated unless a gap is kept.
  let lastT = NaN;
  let lastCpu = 0;
  let lastWait = 0;
  return {
    /** @param {number} t @param {number} cpu @param {number} wait */
    tick(t, cpu, wait) {
      if (!Number.isNaN(lastT) && (cpu - lastCpu > thresholds.cpuMs || t - lastT > thresholds.wallMs))
        keep({ at: lastT, wall: t - lastT, cpu: cpu - lastCpu, wait: wait - lastWait });
      lastT = t;
      lastCpu = cpu;
      lastWait = wait;
    },
  };
}
