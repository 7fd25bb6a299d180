/**
 * @module runner/young-generation
 * Caps the young generation of the thread that times requests. V8 doubles each semi-space, up to
 * 16 MiB, as a run allocates, whatever it keeps: every scavenge then sweeps more socket Buffers
 * and pauses the loop for longer, and the young generation holds 32 MiB of RSS. A worker's is
 * capped by its resourceLimits; the main thread's limit (`--max-semi-space-size`) is read only when
 * the process starts, and re-executing the CLI to pass it would cost a second process. What V8 does
 * read at each growth is the growth factor, so once the main isolate's semi-spaces have reached
 * the cap a factor of 1 stops them there (and lets them grow back to it if V8 shrinks them). Once a
 * run sends fast enough that scavenges come several a second and they keep little of what they find,
 * the cap rises once, from MAIN_SEMI_SPACE_MB to BUSY_SEMI_SPACE_MB (factor 2 until reached): there
 * a small young generation costs CPU and shortens no pause.
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
import { GCProfiler, getHeapSpaceStatistics, setFlagsFromString, type GCProfilerResult } from 'node:v8';

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
 * Raised only while scavenges keep little (RAISE_MAX_SURVIVAL): with thousands of long answers in
 * flight a quarter to a half of what a scavenge finds survives it, and a larger semi-space only
 * copies more in each pause (session 45).
 */
export const BUSY_SEMI_SPACE_MB = 8;
/**
 * Scavenges within RAISE_WINDOW_MS that raise the cap to BUSY_SEMI_SPACE_MB (4 a second: ≥ 16 MB a
 * second allocated), counted from the first send on (`noteSending`): loading the commands and the
 * warm-up allocate in a burst that says nothing of the run's rate.
 */
export const RAISE_AFTER_SCAVENGES = 8;
export const RAISE_WINDOW_MS = 2_000;
/**
 * The most that may survive a scavenge, at the median of those RAISE_AFTER_SCAVENGES, for the cap to
 * rise: what it kept in the young generation plus what it promoted, of what it found there (read at
 * the collection itself: scavengeSurvivals). A scavenge costs what survives it, not the semi-space's
 * size: where little survives (short requests: 2-14% at 1,000 streamed requests a second, 4 MiB) a
 * larger one halves the scavenges for the same copying; where much does (5,000 streams of 30 s
 * answers: 26-62%, each part of an answer living past the next scavenge) it only makes each pause
 * longer (7-20 ms at 8 MiB against 3.6-9 at 4 MiB) for about the same work (docs/benchmarks-log.md,
 * "Session 45").
 */
export const RAISE_MAX_SURVIVAL = 0.15;

const MIB = 1024 * 1024;

type HeapSpaces = ReturnType<typeof getHeapSpaceStatistics>;

/** One semi-space, bytes (V8 reports the new space as both semi-spaces). */
function semiSpaceOf(spaces: HeapSpaces): number {
  const space = spaces.find((s) => s.space_name === 'new_space');
  return space === undefined ? 0 : space.space_size / 2;
}

const semiSpaceBytes = () => semiSpaceOf(getHeapSpaceStatistics());

type GcStatistic = GCProfilerResult['statistics'][number];

const used = (spaces: GcStatistic['afterGC']['heapSpaceStatistics'], name: string) =>
  spaces.find((s) => s.spaceName === name)?.spaceUsedSize ?? 0;

/**
 * What survived each scavenge of `statistics` (V8's GCProfiler: the heap's spaces just before and
 * just after each collection), as a fraction of what it found in the young generation: what it kept
 * there plus what it promoted (the old generation's growth during it). Full collections are left out.
 */
export function scavengeSurvivals(statistics: readonly GcStatistic[]): number[] {
  const survivals: number[] = [];
  for (const { gcType, beforeGC, afterGC } of statistics) {
    if (gcType !== 'Scavenge') continue;
    const found = used(beforeGC.heapSpaceStatistics, 'new_space');
    if (found <= 0) continue;
    const kept = used(afterGC.heapSpaceStatistics, 'new_space');
    const promoted = Math.max(
      0,
      used(afterGC.heapSpaceStatistics, 'old_space') - used(beforeGC.heapSpaceStatistics, 'old_space'),
    );
    survivals.push((kept + promoted) / found);
  }
  return survivals;
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
  // What each scavenge kept, read at the collection itself: the heap as the observer runs would
  // count all that was allocated since. Only until the busy cap is decided.
  let profiler: GCProfiler | undefined = busyMb > mb ? new GCProfiler() : undefined;
  profiler?.start();
  // After each scavenge (the only time V8 grows the space): cap once reached, then hold it.
  const observer = new PerformanceObserver((list) => {
    setMeasuringFlags();
    const spaces = getHeapSpaceStatistics();
    let survivals: number[] = [];
    if (profiler !== undefined) {
      survivals = scavengeSurvivals(profiler.stop().statistics);
      profiler.start();
    }
    if (raise(list.getEntries(), sendingSince, survivals)) {
      profiler?.stop();
      profiler = undefined;
      capMb = busyMb;
      state = 'growing';
      thaw();
      return;
    }
    const next = holdState(semiSpaceOf(spaces), capMb * MIB);
    // Frozen again at each collection: a worker starting up sets V8's flags back.
    if (next === 'capped') freeze();
    else if (state === 'capped') thaw();
    state = next;
  });
  observer.observe({ entryTypes: ['gc'] });
  if (semiSpaceBytes() >= mb * MIB) {
    state = 'capped';
    freeze();
  }
}

/**
 * The state after a collection that left one semi-space at `semi` bytes under a cap of `cap`: below
 * it, growing (towards the cap, or back to it: after a quiet spell V8 may shrink the young
 * generation to ~1 MiB, and a growth factor of 1 held it there, a scavenge every few hundred KB, for
 * the rest of the process: 1,575 of them in one run's reports, docs/benchmarks-log.md "Session
 * 44"); at it, capped.
 */
export function holdState(semi: number, cap: number): 'growing' | 'capped' {
  return semi < cap ? 'growing' : 'capped';
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
 * (never when the busy cap is not above the first), if at the median of them no more than
 * RAISE_MAX_SURVIVAL of what each found survived it. `survivals` are those of the scavenges among
 * `entries`, in order (scavengeSurvivals); one not known counts as the last known, or as nothing kept.
 */
export function createRaise(
  mb: number,
  busyMb: number,
): (entries: readonly GcEntry[], since?: number, survivals?: readonly number[]) => boolean {
  const times: number[] = [];
  const kept: number[] = [];
  let raised = busyMb <= mb;
  return (entries, since = -Infinity, survivals = []) => {
    if (raised) return false;
    let scavenge = 0;
    for (const entry of entries) {
      if ((entry.detail as { kind?: number } | undefined)?.kind !== MINOR_GC) continue;
      const survival = survivals[scavenge] ?? survivals.at(-1) ?? 0;
      scavenge += 1;
      if (entry.startTime < since) continue;
      times.push(entry.startTime);
      kept.push(survival);
      if (times.length > RAISE_AFTER_SCAVENGES) {
        times.shift();
        kept.shift();
      }
      if (
        times.length === RAISE_AFTER_SCAVENGES &&
        entry.startTime - times[0]! <= RAISE_WINDOW_MS &&
        medianOf(kept) <= RAISE_MAX_SURVIVAL
      ) {
        raised = true;
        return true;
      }
    }
    return false;
  };
}

function medianOf(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Sets the cap, the lone scavenges and the reducer's delay again (a worker that came online reset V8's flags); nothing when off. */
export function holdYoungGeneration(): void {
  if (state !== 'off') setMeasuringFlags();
  if (state === 'capped') freeze();
}
