/**
 * @module plan/capacity
 * The step logic of `chatbench capacity` (issue 5 §3), pure: which target to try next, and whether
 * a step was good. The search ramps geometrically (×factor from the start) until a step is bad,
 * then bisects between the highest good and the lowest bad target until they are within
 * `precision` of each other (relative to the good one), so the true knee lies in [good, bad] and
 * `good` is within `precision` of it. Every search ends: by convergence, by max steps, or at a
 * floor when even small targets fail. The runner adds the time bound.
 *
 * A step is bad when an SLO broke, or the service saturated: it accepted (ok) under
 * `minAcceptedShare` of what was offered, or its TTFP p50 rose within the step by more than
 * `maxTtfpRise` (relative) and `minTtfpRiseMs` (absolute, default 100 ms: a cold start or the jitter
 * of a fast service is no rise).
 *
 * A step is bad, too, when the service said it is unhealthy: a health probe (`--health-probe`)
 * failed in its measured window. That is saturation by the service's own account (v4.7's
 * `/health/ready` answers 503 once its request thread pool has been saturated for 10 s), and the
 * search stops there: a higher target would only saturate it more, and a lower one is bisected
 * from an unhealthy service.
 */

export interface SearchOptions {
  /** First target: requests per second, or users. */
  readonly start: number;
  /** Ramp factor (default 2). */
  readonly factor: number;
  /** Stop bisecting when (bad − good) ≤ precision · good (default 0.1). */
  readonly precision: number;
  readonly maxSteps: number;
  /** Users: targets are whole numbers, and bisection stops when bad − good ≤ 1. */
  readonly integer: boolean;
  /** The highest target a step may have (docs/limits.md); the ramp stops there. Default: none. */
  readonly max?: number;
}

export const DEFAULT_SEARCH = { factor: 2, precision: 0.1, maxSteps: 12 } as const;

/** Below start / FLOOR_DIVISOR (or under 1 user) the search gives up: nothing is sustainable. */
export const FLOOR_DIVISOR = 64;

export interface SaturationRule {
  readonly minAcceptedShare: number;
  readonly maxTtfpRise: number;
  readonly minTtfpRiseMs: number;
}

export const DEFAULT_SATURATION: SaturationRule = { minAcceptedShare: 0.95, maxTtfpRise: 0.5, minTtfpRiseMs: 100 };

/** What a step measured (its load summary's measured window, reduced). */
export interface StepFigures {
  /** Per second; for users (closed model) offered equals sent. */
  readonly offered_rate: number | null;
  readonly sent_rate: number | null;
  readonly ok_rate_per_s: number | null;
  readonly ttfp_first_p50_ms: number | null;
  readonly ttfp_last_p50_ms: number | null;
  /** The broken SLOs' reasons. */
  readonly broken_slos: readonly string[];
  /** `--health-probe`: the probes of the measured window; absent or null without a probe. */
  readonly health?: {
    readonly path: string;
    readonly probes: number;
    readonly failures: number;
    readonly first_failure: string | null;
  } | null;
}

/** The reason of a step whose health probe failed; every such reason starts with `unhealthy`. */
export const UNHEALTHY = 'unhealthy';

/** Whether a verdict's reasons include a failing health probe. */
export const isUnhealthy = (reasons: readonly string[]): boolean => reasons.some((r) => r.startsWith(UNHEALTHY));

const fmt = (v: number) => String(Number(v.toFixed(2)));

/** Whether a step was good, and every reason it was not. A step that offered nothing is bad. */
export function judgeStep(
  f: StepFigures,
  rule: SaturationRule = DEFAULT_SATURATION,
): { good: boolean; reasons: string[] } {
  const reasons = [...f.broken_slos];
  const offered = f.offered_rate ?? 0;
  if (offered <= 0) reasons.push('nothing was offered in the measured window');
  else {
    const sent = f.sent_rate ?? 0;
    const ok = f.ok_rate_per_s ?? 0;
    if (sent < rule.minAcceptedShare * offered)
      reasons.push(
        `saturated: sent ${fmt(sent)}/s, under ${rule.minAcceptedShare * 100}% of the offered ${fmt(offered)}/s (in-flight cap or generator)`,
      );
    if (ok < rule.minAcceptedShare * offered)
      reasons.push(
        `saturated: accepted ${fmt(ok)}/s, under ${rule.minAcceptedShare * 100}% of the offered ${fmt(offered)}/s`,
      );
  }
  const first = f.ttfp_first_p50_ms;
  const last = f.ttfp_last_p50_ms;
  if (
    first !== null &&
    last !== null &&
    first > 0 &&
    last / first - 1 > rule.maxTtfpRise &&
    last - first > rule.minTtfpRiseMs
  ) {
    reasons.push(
      `saturated: TTFP p50 rose ${Math.round((last / first - 1) * 100)}% within the step (${fmt(first)} → ${fmt(last)} ms)`,
    );
  }
  const h = f.health;
  if (h && h.failures > 0)
    reasons.push(
      `${UNHEALTHY}: ${h.path} failed ${h.failures} of ${h.probes} probes${h.first_failure === null ? '' : ` (first: ${h.first_failure})`}`,
    );
  return { good: reasons.length === 0, reasons };
}

export type StopReason = 'converged' | 'max_steps' | 'no_knee' | 'floor' | 'max_target' | 'unhealthy';

/** The search so far: every step's target and verdict, in order. */
export type SearchHistory = ReadonlyArray<{ readonly target: number; readonly good: boolean }>;

/** The highest good target, and the lowest bad target above it (null when none). */
export function bracket(history: SearchHistory): { good: number | null; bad: number | null } {
  let good: number | null = null;
  for (const s of history) if (s.good && (good === null || s.target > good)) good = s.target;
  let bad: number | null = null;
  for (const s of history)
    if (!s.good && (good === null || s.target > good) && (bad === null || s.target < bad)) bad = s.target;
  return { good, bad };
}

const roundTarget = (t: number, integer: boolean) => (integer ? Math.round(t) : Number(t.toPrecision(4)));

/** The next step, or why the search is over. */
export function nextStep(
  history: SearchHistory,
  o: SearchOptions,
): { target: number; phase: 'ramp' | 'bisect' } | { stop: StopReason } {
  const { good, bad } = bracket(history);
  if (history.length === 0) return { target: roundTarget(o.start, o.integer), phase: 'ramp' };
  const done = (reason: StopReason) => ({ stop: reason });
  if (bad === null) {
    if (history.length >= o.maxSteps) return done('no_knee');
    const max = o.max ?? Infinity;
    if (good !== null && good >= max) return done('max_target');
    return {
      target: Math.min(max, roundTarget(Math.max(good ?? o.start, o.start) * o.factor, o.integer)),
      phase: 'ramp',
    };
  }
  const low = good ?? 0;
  if (good !== null && bad - good <= (o.integer ? 1 : o.precision * good)) return done('converged');
  if (history.length >= o.maxSteps) return done('max_steps');
  const target = roundTarget((low + bad) / 2, o.integer);
  const floor = o.integer ? 1 : o.start / FLOOR_DIVISOR;
  if (target < floor || target <= low || target >= bad) return done(good === null ? 'floor' : 'converged');
  return { target, phase: 'bisect' };
}
