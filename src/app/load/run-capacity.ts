/**
 * @module app/load/run-capacity
 * `chatbench capacity`: a capacity search made of load runs. Each step runs `runLoad` at one target
 * (a rate, or users with --users) for the step duration into `<out>/steps/NN-rate-R/`, renders its
 * load reports with the SLOs, and plan/capacity judges it and picks the next target. The search is
 * bounded by its step logic (convergence, max steps, a floor), by `maxDurationMs` (a step that
 * would not fit is not started) and by the signal. Writes capacity.json, capacity.md and
 * capacity.html with the step chart.
 */
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { RunError, UsageError } from '../../errors.js';
import type { Slo } from '../../metrics/load-slo.js';
import {
  isUnhealthy,
  judgeStep,
  nextStep,
  type SaturationRule,
  type SearchOptions,
  type StepFigures,
} from '../../plan/capacity.js';
import {
  CAPACITY_VERSION,
  type CapacityResult,
  type CapacityStep,
  type LoadSummary,
} from '../../records/load-summary.js';
import { renderCapacityHtml, renderCapacityMd } from '../../reports/load/capacity-report.js';
import { renderLoadReports } from './render-load-reports.js';
import { LoadSpecSchema, runLoad, type LoadOptions, type LoadSpec } from './run-load.js';
import { writeFileAtomic } from '../store/output-files.js';

/** Runs one step: a load run of `spec` into `dir`; resolves to its load summary. */
export type StepRunner = (spec: LoadSpec, dir: string) => Promise<LoadSummary>;

export interface CapacityOptions {
  /** Everything a load run needs but its spec, directory and start callback (onRecord and onTick see every step's records and ticks). */
  readonly load: Omit<LoadOptions, 'spec' | 'outDir' | 'onStart'>;
  /** The spec every step starts from (operation, mode, set, arrival, tokens, seed, max in flight). */
  readonly spec: LoadSpec;
  readonly users: boolean;
  readonly search: SearchOptions;
  readonly saturation: SaturationRule;
  readonly stepDurationMs: number;
  /** The start of each step left out of its figures (the service settling at the new rate). */
  readonly stepWarmupMs: number;
  readonly maxDurationMs: number | null;
  readonly slos: readonly Slo[];
  readonly outDir: string;
  readonly onStep?: (step: CapacityStep) => void;
  readonly onStepStart?: (info: { index: number; target: number; phase: 'ramp' | 'bisect'; dir: string }) => void;
  readonly now?: () => number;
  /** Replaces the real step (tests of the loop without a service). */
  readonly runStep?: StepRunner;
}

export interface CapacityRun {
  readonly result: CapacityResult;
  readonly files: readonly string[];
}

/** `steps/03-rate-12.5`, `steps/04-users-8`. */
export const stepDirName = (index: number, target: number, users: boolean): string =>
  join('steps', `${String(index + 1).padStart(2, '0')}-${users ? 'users' : 'rate'}-${target}`);

/** The spec of one step: the base spec at one constant target for the step duration, unsharded. */
export function stepSpec(
  base: LoadSpec,
  target: number,
  o: Pick<CapacityOptions, 'users' | 'stepDurationMs' | 'stepWarmupMs'>,
): LoadSpec {
  const { rate: _rate, concurrency: _concurrency, ...rest } = base;
  const parsed = LoadSpecSchema.safeParse({
    ...rest,
    model: o.users ? 'closed' : 'open',
    ...(o.users ? { concurrency: target, arrival: 'constant' } : { rate: target }),
    stages: null,
    duration_ms: o.stepDurationMs,
    requests: null,
    warmup_ms: o.stepWarmupMs,
    cooldown_ms: 0,
    shard: null,
    start_at: null,
  });
  if (!parsed.success)
    throw new UsageError(`capacity step at ${target}: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  return parsed.data;
}

/** What plan/capacity judges, from a step's summary. */
export function stepFigures(summary: LoadSummary): StepFigures {
  const m = summary.windows.measured;
  return {
    offered_rate: m.rates.offered,
    sent_rate: m.rates.sent,
    ok_rate_per_s: m.rates.ok,
    ttfp_first_p50_ms: m.ttfp_trend.first_p50_ms,
    ttfp_last_p50_ms: m.ttfp_trend.last_p50_ms,
    // A goodput-only SLO (`goodput:…`) defines goodput and never makes a step bad.
    broken_slos: summary.slos.filter((s) => !s.passed && !s.goodput_only).map((s) => s.reason),
    health: summary.health,
  };
}

function toStep(
  index: number,
  phase: 'ramp' | 'bisect',
  target: number,
  dir: string,
  summary: LoadSummary,
  verdict: { good: boolean; reasons: string[] },
): CapacityStep {
  const m = summary.windows.measured;
  return {
    index,
    phase,
    target,
    good: verdict.good,
    reasons: verdict.reasons,
    dir,
    offered_rate: m.rates.offered,
    sent_rate: m.rates.sent,
    ok_rate_per_s: m.rates.ok,
    goodput: m.rates.goodput,
    rate_limited_rate: m.shares.rate_limited_rate,
    error_rate: m.shares.error_rate,
    ttft_p50_ms: m.latency.ttft_ms?.p50 ?? null,
    ttft_p95_ms: m.latency.ttft_ms?.p95 ?? null,
    ttfp_p50_ms: m.latency.ttfp_ms?.p50 ?? null,
    ttfp_p95_ms: m.latency.ttfp_ms?.p95 ?? null,
    total_p95_ms: m.latency.total_ms?.p95 ?? null,
    response_p95_ms: m.latency.response_ms?.p95 ?? null,
    tpot_per_token_p50_ms: m.tokens?.tpot_per_token_ms?.p50 ?? null,
    output_tokens_per_s: m.tokens?.output_throughput_tokens_per_s ?? null,
    itl_p95_ms: m.latency.answer_gap_ms?.p95 ?? null,
    ttfp_rise: m.ttfp_trend.rise,
    warning: summary.warning,
    loop_delay_ms: summary.generator.loop_delay_ms,
    ...(summary.health === null
      ? {}
      : { health_failures: summary.health.failures, health_probes: summary.health.probes }),
  };
}

/** Runs the search to its end and writes the capacity reports. */
export async function runCapacity(options: CapacityOptions): Promise<CapacityRun> {
  const now = options.now ?? (() => performance.now());
  const started = now();
  const outDir = resolve(options.load.cwd, options.outDir);
  await mkdir(outDir, { recursive: true });
  const runStep: StepRunner =
    options.runStep ??
    (async (spec, dir) => {
      try {
        await runLoad({ ...options.load, spec, outDir: dir });
      } catch (error) {
        // A first step that could not be carried out means the target cannot be measured (exit 3).
        // Later, a step whose requests all failed alike (every one a 429 past the limit) is the
        // search's finding: a bad step, judged from its reports like any other.
        if (!(error instanceof RunError) || steps.length === 0) throw error;
      }
      return (await renderLoadReports(dir, { version: options.load.version, slos: options.slos })).summary;
    });
  const steps: CapacityStep[] = [];
  let stopped: CapacityResult['stopped'] = 'converged';
  let longestStepMs = options.stepDurationMs;
  for (let i = 0; i <= options.search.maxSteps; i += 1) {
    const next = nextStep(steps, options.search);
    if ('stop' in next) {
      stopped = next.stop;
      break;
    }
    if (options.load.signal.aborted) {
      stopped = 'interrupted';
      break;
    }
    // A step lasts its duration plus the drain of its last requests: estimate by the longest so far.
    if (options.maxDurationMs !== null && now() - started + longestStepMs > options.maxDurationMs) {
      stopped = 'max_duration';
      break;
    }
    const dir = stepDirName(steps.length, next.target, options.users);
    options.onStepStart?.({ index: steps.length, target: next.target, phase: next.phase, dir });
    const stepStarted = now();
    const summary = await runStep(stepSpec(options.spec, next.target, options), join(outDir, dir));
    longestStepMs = Math.max(longestStepMs, now() - stepStarted);
    if (summary.run.interrupted || options.load.signal.aborted) {
      stopped = 'interrupted';
      break;
    }
    const step = toStep(
      steps.length,
      next.phase,
      next.target,
      dir,
      summary,
      judgeStep(stepFigures(summary), options.saturation),
    );
    steps.push(step);
    options.onStep?.(step);
    // The service said it is unhealthy: the search stops at this step, naming why (plan/capacity).
    if (isUnhealthy(step.reasons)) {
      stopped = 'unhealthy';
      break;
    }
  }
  const sustainable = steps
    .filter((s) => s.good)
    .reduce<number | null>((best, s) => (best === null || s.target > best ? s.target : best), null);
  const knee = steps
    .filter((s) => !s.good && (sustainable === null || s.target > sustainable))
    .reduce<number | null>((low, s) => (low === null || s.target < low ? s.target : low), null);
  const result: CapacityResult = {
    capacity_version: CAPACITY_VERSION,
    unit: options.users ? 'users' : 'requests_per_s',
    sustainable,
    knee,
    stopped,
    precision: options.search.precision,
    slos: options.slos.map((s) => s.gate.text),
    steps,
    duration_s: (now() - started) / 1000,
  };
  const meta = { generated_by: `chatbench ${options.load.version}`, run_dir: outDir };
  const files: string[] = [];
  for (const [name, text] of [
    ['capacity.json', `${JSON.stringify(result, null, 2)}\n`],
    ['capacity.md', renderCapacityMd(result, meta)],
    ['capacity.html', renderCapacityHtml(result, meta)],
  ] as const) {
    await writeFileAtomic(join(outDir, name), text);
    files.push(join(outDir, name));
  }
  return { result, files };
}
