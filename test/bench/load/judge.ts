/**
 * @module bench/load/judge
 * Pure figures of bench:load: the length of a sustained-rate step, its verdict, and medians of
 * paired rounds. A step is long enough that one GC pause cannot decide it: at least STEP_MIN_MS and
 * at least STEP_MIN_SENDS sends (capped at STEP_MAX_MS), so the lag p99 is taken over ≥ 1,000 sends
 * (a 20 ms pause at 334/s delays ~7 of them, under 1%).
 */
export const STEP_MIN_MS = 3_000;
export const STEP_MIN_SENDS = 1_000;
export const STEP_MAX_MS = 10_000;
export const MAX_LAG_MS = 5;

/** How long a step at `rate`/s runs, ms. */
export function stepMs(rate: number): number {
  return Math.min(STEP_MAX_MS, Math.max(STEP_MIN_MS, Math.ceil((STEP_MIN_SENDS / rate) * 1000)));
}

export interface StepFigures {
  readonly rate: number;
  readonly durationMs: number;
  readonly sent: number;
  readonly dropped: number;
  /** Lag p99 over the sends after the settling time (connections open, code warm); null: none. */
  readonly steadyLagP99Ms: number | null;
  /** The generator's own event-loop delay p99 (generator.json); null when not measured. */
  readonly loopDelayP99Ms: number | null;
}

export type Verdict =
  | 'kept up'
  | 'fell behind: its event loop was busy'
  | 'fell behind: sends waited (not its event loop)'
  | 'fell behind: sent too few';

/**
 * Kept up when nothing was dropped, ≥ 98% of the planned sends went out and the steady lag p99 is
 * under MAX_LAG_MS. When the lag fails, the generator's own loop delay says why: a busy loop (its
 * CPU), or a wait elsewhere (connections, in-flight cap).
 */
export function judgeStep(s: StepFigures): Verdict {
  const planned = Math.round((s.rate * s.durationMs) / 1000);
  if (s.dropped > 0 || s.sent < 0.98 * planned) return 'fell behind: sent too few';
  if (s.steadyLagP99Ms !== null && s.steadyLagP99Ms < MAX_LAG_MS) return 'kept up';
  return s.loopDelayP99Ms !== null && s.loopDelayP99Ms >= MAX_LAG_MS
    ? 'fell behind: its event loop was busy'
    : 'fell behind: sends waited (not its event loop)';
}

/** The median of `values` (the mean of the middle two for an even count); null when empty. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
