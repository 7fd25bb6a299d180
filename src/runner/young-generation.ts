/**
 * @module runner/young-generation
 * Caps the young generation of the thread that times requests. V8 doubles each semi-space, up to
 * 16 MiB, as a run allocates, whatever it keeps: every scavenge then sweeps more socket Buffers
 * and pauses the loop for longer, and the young generation holds 32 MiB of RSS. A worker's is
 * capped by its resourceLimits; the main thread's limit (`--max-semi-space-size`) is read only when
 * the process starts, and re-executing the CLI to pass it would cost a second process. What V8 does
 * read at each growth is the growth factor, so once the main isolate's semi-spaces have reached
 * the cap a factor of 1 stops them there. Once a run sends fast enough that scavenges come several
 * a second, the cap rises once, from MAIN_SEMI_SPACE_MB to BUSY_SEMI_SPACE_MB (factor 2 until
 * reached): there a small young generation costs CPU and shortens no pause.
 *
 * V8's flags are the process's, and on Node 20 a worker starting up sets them back to their
 * defaults: `holdYoungGeneration` sets the factor again once a worker is online (the load workers
 * call it), and every scavenge re-checks it (for a worker started elsewhere, at the cost of one
 * more doubling). A worker then stays at the young generation it starts with (2 × 4 MiB under a
 * resourceLimits of 24 MiB).
 *
 * Scavenges run on the collecting thread alone (`--no-parallel-scavenge`, set the same way and held
 * with the cap). A parallel scavenge splits its work with V8's helper threads and the thread waits
 * for the slowest of them: when a helper is off the CPU (the simulator, another process, the
 * other helpers), the loop stands still without running — 19–56 ms of wall time around 0.5–2 ms
 * of the thread's own CPU at 20 streamed users (docs/benchmarks-log.md, session 33). Alone, a 4 MiB
 * scavenge takes 2.5–3.5 ms of the thread's CPU and waits for nobody.
 */
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/**
 * The main thread's semi-space cap, MiB. At 20 streamed users a scavenge came every ~5 s with
 * 16 MiB semi-spaces and paused the loop 6–17 ms on a quiet machine (docs/benchmarks-log.md); with
 * 4 MiB they come four times as often and each has a quarter of the Buffers to sweep.
 */
export const MAIN_SEMI_SPACE_MB = 4;

/**
 * The cap once scavenges come often (RAISE_AFTER_SCAVENGES within RAISE_WINDOW_MS), MiB. What a
 * scavenge copies is what is alive, at a high request rate the requests in flight, whatever the
 * semi-space's size; a small one only makes it come more often, and promotes what lives past two
 * of them to the old generation, to be marked and compacted later. At 1,000 streamed requests a
 * second the 4 MiB cap cost 15–18% more CPU per request than 8 or 16 MiB (docs/benchmarks-log.md,
 * "Session 36"); 8 MiB took all of that back. At 20 streamed users a scavenge comes every ~1.7 s:
 * far below the rate that raises it, so the loop's pauses there stay those of the 4 MiB cap.
 */
export const BUSY_SEMI_SPACE_MB = 8;
/**
 * Scavenges within RAISE_WINDOW_MS that raise the cap to BUSY_SEMI_SPACE_MB (4 a second: ≥ 16 MB a
 * second allocated), counted from the first send on (`noteSending`): loading the commands and the
 * warm-up allocate in a burst that says nothing of the run's rate.
 */
export const RAISE_AFTER_SCAVENGES = 8;
export const RAISE_WINDOW_MS = 2_000;

const MIB = 1024 * 1024;

/** One semi-space now, bytes (V8 reports the new space as both semi-spaces). */
function semiSpaceBytes(): number {
  const space = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
  return space === undefined ? 0 : space.space_size / 2;
}

/** When the first request was sent (performance.now()); the raise counts scavenges from then. */
let sendingSince = Infinity;

/** Marks that requests are being sent: scavenges from now on may raise the cap (the runners call it). */
export function noteSending(): void {
  if (sendingSince === Infinity) sendingSince = performance.now();
}

type State = 'off' | 'growing' | 'capped';
let state: State = 'off';
/** The cap now, MiB: MAIN_SEMI_SPACE_MB, raised once to BUSY_SEMI_SPACE_MB. */
let capMb = MAIN_SEMI_SPACE_MB;

const freeze = () => setFlagsFromString('--semi-space-growth-factor=1');
/** V8's default growth factor: the space may double again at the next scavenges that call for it. */
const thaw = () => setFlagsFromString('--semi-space-growth-factor=2');
/**
 * V8's memory reducer (full collections it starts when it judges the process idle, 8 s after a
 * mark-compact, up to three 0.5 s apart) schedules its next look `--gc-memory-reducer-start-delay-ms`
 * ahead, a flag it reads each time: pushed out of reach (23 days), it never starts one during a
 * run. `--no-memory-reducer` itself is read only as node starts, and NODE_OPTIONS refuses it. On the
 * quiet machine (docs/benchmarks-log.md, session 33) its collections were the loop's longest pauses at 20
 * streamed users: max 11.0–17.5 ms with them, 4.0–10.7 ms without. A run's heap then shrinks only at
 * the collections its allocation calls for, which is what a run that measures wants.
 */
const setMeasuringFlags = () => {
  setFlagsFromString('--no-parallel-scavenge');
  setFlagsFromString('--gc-memory-reducer-start-delay-ms=2000000000');
};

/**
 * Lets the main isolate's semi-spaces grow to `mb` MiB, then no further, scavenges run on the
 * collecting thread alone, and the memory reducer waits past any run. Call it first thing in the process (loading the commands alone grows
 * them to 16 MiB). Idempotent.
 */
export function capYoungGeneration(mb: number = MAIN_SEMI_SPACE_MB, busyMb: number = BUSY_SEMI_SPACE_MB): void {
  if (state !== 'off') return;
  state = 'growing';
  capMb = mb;
  setMeasuringFlags();
  const raise = createRaise(mb, busyMb);
  // After each scavenge (the only time V8 grows the space): cap once reached, then hold it.
  const observer = new PerformanceObserver((list) => {
    setMeasuringFlags();
    if (raise(list.getEntries(), sendingSince)) {
      capMb = busyMb;
      state = 'growing';
      thaw();
      return;
    }
    if (state === 'growing' && semiSpaceBytes() < capMb * MIB) return;
    state = 'capped';
    freeze();
  });
  observer.observe({ entryTypes: ['gc'] });
  if (semiSpaceBytes() >= mb * MIB) {
    state = 'capped';
    freeze();
  }
}

/** A GC entry's kind and start, as the observer gets it (PerformanceEntry of type gc). */
interface GcEntry {
  readonly startTime: number;
  readonly detail?: unknown;
}

const MINOR_GC = 1; // perf_hooks constants.NODE_PERFORMANCE_GC_MINOR: a scavenge

/**
 * Whether the scavenges so far call for the busy cap: true once, at the scavenge that completes
 * RAISE_AFTER_SCAVENGES within RAISE_WINDOW_MS, counting only those that started at `since` or after
 * (never when the busy cap is not above the first).
 */
export function createRaise(mb: number, busyMb: number): (entries: readonly GcEntry[], since?: number) => boolean {
  const times: number[] = [];
  let raised = busyMb <= mb;
  return (entries, since = -Infinity) => {
    if (raised) return false;
    for (const entry of entries) {
      if (entry.startTime < since || (entry.detail as { kind?: number } | undefined)?.kind !== MINOR_GC) continue;
      times.push(entry.startTime);
      if (times.length > RAISE_AFTER_SCAVENGES) times.shift();
      if (times.length === RAISE_AFTER_SCAVENGES && entry.startTime - times[0]! <= RAISE_WINDOW_MS) {
        raised = true;
        return true;
      }
    }
    return false;
  };
}

/** Sets the cap, the lone scavenges and the reducer's delay again (a worker that came online reset V8's flags); nothing when off. */
export function holdYoungGeneration(): void {
  if (state !== 'off') setMeasuringFlags();
  if (state === 'capped') freeze();
}
