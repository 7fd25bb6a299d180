/**
 * @module cli/options/speedup
 * `CHATBENCH_TEST_SPEEDUP=N`, for the tests that run every documented example as printed
 * (test/integration/help-examples-make.test.ts): every schedule length (--duration, --stages, --warmup,
 * --cooldown, --step-duration, --step-warmup, --max-duration, --think-time) and request count (--requests) is
 * divided by N, `demo` asks the tenth of the questions `demo --quick` asks (in both modes), and the
 * embedded simulator (--sim) runs N times faster, so `load --rate 20 --duration 60s` takes 0.6 s at
 * N = 100, and `load --concurrency 16 --requests 500` sends 5.
 * A run under it says so on stderr and records the scaled values in its manifest. Not for
 * measuring anything: it is how a minute-long example runs in a test.
 */
import { UsageError } from '../../errors.js';
import { parseDuration } from '../duration.js';

export const SPEEDUP_ENV = 'CHATBENCH_TEST_SPEEDUP';

/** Options that set how long a run's schedule lasts (not how long a request may take). */
const SCHEDULE_OPTIONS = ['duration', 'warmup', 'cooldown', 'step-duration', 'step-warmup', 'max-duration'] as const;

/** The speed-up asked for; null when the variable is unset. */
export function speedupOf(env: Readonly<Record<string, string | undefined>>): number | null {
  const text = env[SPEEDUP_ENV];
  if (text === undefined || text === '') return null;
  const n = Number(text);
  if (!Number.isFinite(n) || n < 1) throw new UsageError(`${SPEEDUP_ENV}: "${text}" must be a number of at least 1`);
  return n;
}

/** A length divided by `factor`, at least 1 ms; 0 (no warm-up, no cool-down: the defaults) stays 0. */
const scaled = (text: string, key: string, factor: number): string => {
  try {
    const ms = parseDuration(text, key);
    return ms === 0 ? '0ms' : `${Math.max(1, Math.round(ms / factor))}ms`;
  } catch {
    return text; // not a duration: the command says what is wrong with it
  }
};

/**
 * The schedule options of `values` divided by `factor` (only those present and parseable). The
 * think-time parser (and the plan's modules behind it) loads only when a think time is given: every
 * command line reads this module.
 */
export async function speedUp(
  values: Readonly<Record<string, unknown>>,
  factor: number,
): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const key of SCHEDULE_OPTIONS) {
    if (typeof values[key] === 'string') out[key] = scaled(values[key], key, factor);
  }
  if (typeof values.requests === 'number' && Number.isFinite(values.requests) && values.requests >= 1) {
    out.requests = Math.max(1, Math.ceil(values.requests / factor));
  }
  if (typeof values['think-time'] === 'string') {
    const { parseThinkTime } = await import('../../plan/think-time.js');
    const think = parseThinkTime(values['think-time']);
    const ms = (v: number) => `${Math.max(1, Math.round(v / factor))}ms`;
    if (!('problems' in think)) {
      out['think-time'] =
        think.kind === 'constant'
          ? ms(think.ms)
          : think.kind === 'uniform'
            ? `${ms(think.min_ms)}..${ms(think.max_ms)}`
            : `lognormal:${ms(think.median_ms)},p99=${ms(think.p99_ms)}`;
    }
  }
  if (typeof values.stages === 'string') {
    out.stages = values.stages
      .split(',')
      .map((stage) => {
        const at = stage.lastIndexOf(':');
        return at === -1 ? stage : `${scaled(stage.slice(0, at).trim(), 'stages', factor)}:${stage.slice(at + 1)}`;
      })
      .join(',');
  }
  return out;
}

/** The embedded simulator's time scale under the speed-up (undefined: its own). */
export function simTimeScale(env: Readonly<Record<string, string | undefined>>): number | undefined {
  const factor = speedupOf(env);
  return factor === null ? undefined : 1 / factor;
}
