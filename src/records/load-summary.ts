/**
 * @module records/load-summary
 * summary.json of a load run, and capacity.json of a capacity search: what metrics/load computes
 * from results.jsonl + generator.json + the manifest's load spec, and what reports/load renders.
 * Rebuilt identically from those three files. A figure that does not exist is null, never 0.
 */
import { z } from 'zod';
import { LoopDelaySchema } from './generator-health.js';
import { ModeSchema } from './record.js';
import { LatencyStatsSchema, OutcomeCountsSchema } from './summary.js';

export const LOAD_SUMMARY_VERSION = 1;
export const CAPACITY_VERSION = 1;

/** The three windows of a run: warm-up and cool-down are reported apart from the measured one. */
export const WINDOW_NAMES = ['warmup', 'measured', 'cooldown'] as const;
export const WindowNameSchema = z.enum(WINDOW_NAMES);
export type WindowName = z.infer<typeof WindowNameSchema>;

const Rate = z.number().nullable();

/** Figures of one window. Requests belong to the window their arrival (scheduled, else sent) falls in. */
export const WindowFiguresSchema = z.object({
  name: WindowNameSchema,
  /** ms after the schedule's zero; end exclusive (the cool-down includes the run's last instant). */
  start_ms: z.number(),
  end_ms: z.number(),
  duration_s: z.number(),
  /** Arrivals the plan asked for in the window: sent + dropped (closed model: sent). */
  offered: z.number().int(),
  sent: z.number().int(),
  dropped: z.number().int(),
  outcomes: OutcomeCountsSchema,
  /** Per second of the window; null when the window is empty (0 s). */
  rates: z.object({
    offered: Rate,
    sent: Rate,
    /** Requests that came back with any outcome but `cancelled`. */
    completed: Rate,
    ok: Rate,
    rate_limited: Rate,
    /** Outcomes other than ok, rate_limited and cancelled. */
    errors: Rate,
    /** ok requests meeting every per-request SLO (docs/reference/metrics.md "goodput"). */
    goodput: Rate,
  }),
  /** Shares of the window's sent requests (the gate figures of the same names); null when none. */
  shares: z.object({ ok_rate: Rate, error_rate: Rate, rate_limited_rate: Rate, pass_rate: Rate }),
  good: z.number().int(),
  /** Latencies of `ok` requests: from `sent` (service time) and from `scheduled` (response time). */
  latency: z.object({
    headers_ms: LatencyStatsSchema.nullable(),
    ttfp_ms: LatencyStatsSchema.nullable(),
    ttft_ms: LatencyStatsSchema.nullable(),
    total_ms: LatencyStatsSchema.nullable(),
    /** done − scheduled: free of coordinated omission. */
    response_ms: LatencyStatsSchema.nullable(),
    /** sent − scheduled, of every sent request. */
    queue_ms: LatencyStatsSchema.nullable(),
    /**
     * ITL: the gaps between successive answer deltas of the window's `ok` requests, all pooled, one
     * sample per gap, as `vllm bench serve` defines it (the eval's `answer_gap_ms`, docs/reference/metrics.md
     * "Tokens"). In a mergeable histogram (metrics/pooled-latency: percentiles within 0.1%); null
     * without gaps, or in a summary from before it.
     */
    answer_gap_ms: LatencyStatsSchema.nullable().default(null),
  }),
  /**
   * Token figures of the window's `ok` answers (docs/reference/metrics.md "Tokens"), counted when the
   * reports are built; null in a window without counted answers (or a summary from before tokens).
   * Throughput: output tokens / the window's duration, as `vllm bench serve`'s over its run.
   */
  tokens: z
    .object({
      output_tokens_total: z.number().int().nonnegative(),
      output_throughput_tokens_per_s: Rate,
      tpot_per_token_ms: LatencyStatsSchema.nullable(),
    })
    .nullable()
    .default(null),
  /** TTFP p50 of the first and last halves of the window's ok requests (by arrival), and the rise. */
  ttfp_trend: z.object({ first_p50_ms: Rate, last_p50_ms: Rate, rise: Rate }),
});
export type WindowFigures = z.infer<typeof WindowFiguresSchema>;

/** summary.json `health`: the probes sent in the measured window. */
export const HealthFiguresSchema = z.object({
  path: z.string(),
  interval_ms: z.number(),
  probes: z.number().int(),
  /** Probes without an answer or with a status other than 2xx (the gate figure `health_failures`). */
  failures: z.number().int(),
  /** Latency of the probes that were answered, whatever their status (the gate figure `health_ms`). */
  health_ms: LatencyStatsSchema.nullable(),
  /** Probes by status (`"200"`, `"503"`), and `"no_answer"`. */
  statuses: z.record(z.string(), z.number().int()),
  /** When the first failing probe of the window was sent (ms after the schedule's zero); null when none failed. */
  first_failure_ms: z.number().nullable(),
  /** The first failure, e.g. `503: Request threadpool saturated for 12.3s (5 requests queued)`; null when none. */
  first_failure: z.string().nullable(),
});
export type HealthFigures = z.infer<typeof HealthFiguresSchema>;

/** One second of the run (timeline.csv). Sends by sent time, outcomes and latencies by completion time. */
export const TimelineRowSchema = z.object({
  second: z.number().int(),
  /** The window the second starts in; `drain` after the schedule's end, while requests finish. */
  window: z.enum([...WINDOW_NAMES, 'drain']),
  offered: z.number().int(),
  sent: z.number().int(),
  dropped: z.number().int(),
  ok: z.number().int(),
  rate_limited: z.number().int(),
  errors: z.number().int(),
  /** Requests sent and not yet done at the end of the second. */
  in_flight: z.number().int(),
  /** Issue 27: TTFT leads (absent in older summaries: null). */
  ttft_p50_ms: Rate.default(null),
  ttft_p95_ms: Rate.default(null),
  ttfp_p50_ms: Rate,
  ttfp_p95_ms: Rate,
  total_p50_ms: Rate,
  total_p95_ms: Rate,
  /** `--health-probe`: probes sent in the second, those that failed, the slowest one's latency and the worst status (null: no answer). */
  health_probes: z.number().int().default(0),
  health_failures: z.number().int().default(0),
  health_max_ms: Rate.default(null),
  health_status: z.number().int().nullable().default(null),
});
export type TimelineRow = z.infer<typeof TimelineRowSchema>;

export const GeneratorFiguresSchema = z.object({
  planned_arrivals: z.number().int(),
  sent: z.number().int(),
  dropped: z.number().int(),
  /** Sends more than 5 ms behind their schedule. */
  late_sends: z.number().int(),
  schedule_lag_ms: z.object({ p50: z.number(), p99: z.number(), max: z.number() }).nullable(),
  peak_in_flight: z.number().int(),
  cpu_ms: z.number().nullable(),
  cpu_ms_per_request: z.number().nullable(),
  interrupted: z.boolean(),
  start_delay_ms: z.number().nullable(),
  /** Lag p99 over 5 ms, or any dropped send: the figures describe the generator as much as the service. */
  fell_behind: z.boolean(),
  /** The timing uncertainty: the generator's event-loop delay over the run; null when not measured. */
  loop_delay_ms: LoopDelaySchema.nullable().default(null),
  /** false when there was no generator.json and these figures come from the records alone. */
  from_generator: z.boolean(),
});
export type GeneratorFigures = z.infer<typeof GeneratorFiguresSchema>;

export const ShareRowSchema = z.object({
  key: z.string(),
  requests: z.number().int(),
  rate_limited: z.number().int(),
  /** This key's share of all 429s. */
  share_of_429s: Rate,
  /** 429s over this key's requests. */
  rate_limited_rate: Rate,
});
export type ShareRow = z.infer<typeof ShareRowSchema>;

export const RateLimitFiguresSchema = z.object({
  /** When the first 429 came back, ms after the schedule's zero; null without 429s. */
  first_429_ms: Rate,
  /** Requests accepted (ok) that arrived before the first 429. */
  ok_before_first_429: z.number().int(),
  /** Requests whose final outcome was 429, and 429 attempts of any try (retried ones included). */
  rate_limited: z.number().int(),
  rate_limited_attempts: z.number().int(),
  /** By token_index ("none" when the record has none), and by the body's `scope`. */
  by_token: z.array(ShareRowSchema),
  by_scope: z.array(ShareRowSchema),
  /** Retry-After of every 429 attempt that had one, seconds. */
  retry_after_s: LatencyStatsSchema.nullable(),
});
export type RateLimitFigures = z.infer<typeof RateLimitFiguresSchema>;

export const RetryFiguresSchema = z.object({
  retried_requests: z.number().int(),
  retry_attempts: z.number().int(),
  /** Outcome of every request's first attempt: what the service did before any retry. */
  first_attempts: OutcomeCountsSchema,
  /** Final outcomes of the retried requests only. */
  after_retry: OutcomeCountsSchema,
});
export type RetryFigures = z.infer<typeof RetryFiguresSchema>;

export const SloResultSchema = z.object({
  text: z.string(),
  /** `ttfp_ms.p95`, `error_rate`; a per-request latency SLO (no statistic) is checked on `max`. */
  figure: z.string(),
  value: Rate,
  passed: z.boolean(),
  reason: z.string(),
  /** The condition (absent in summaries written before the verdict named it). */
  op: z.enum(['>=', '<=', '>', '<', '==']).optional(),
  threshold: z.number().optional(),
  /** Written `goodput:…`: defines goodput only and never fails the run. */
  goodput_only: z.boolean().default(false),
});
export type SloResult = z.infer<typeof SloResultSchema>;

export const LoadSummarySchema = z.object({
  load_summary_version: z.literal(LOAD_SUMMARY_VERSION),
  /** The run is incomplete or the generator fell behind: reports print this in their first line. Null otherwise. */
  warning: z.string().nullable(),
  /** What the reports say next, before any figure: requests that failed by class, timings that may be late (metrics/banner). */
  banner: z.array(z.string()).default([]),
  run: z.object({
    started_at: z.string().nullable(),
    model: z.enum(['open', 'closed']),
    operation: z.string(),
    mode: ModeSchema,
    set: z.string(),
    arrival: z.string().nullable(),
    /** Requests per second (open) or users (closed) asked for; null under stages. */
    target: Rate,
    stages: z.array(z.object({ duration_ms: z.number(), target: z.number() })).nullable(),
    /** From the schedule's zero to the end of the schedule (or of the last arrival). */
    duration_ms: z.number(),
    requests: z.number().int(),
    interrupted: z.boolean(),
    /**
     * The run has no generator.json: its process was killed (or is still running). duration_ms then
     * ends at its last recorded request, and `warning` says so.
     */
    incomplete: z.boolean(),
  }),
  windows: z.object({ warmup: WindowFiguresSchema, measured: WindowFiguresSchema, cooldown: WindowFiguresSchema }),
  slos: z.array(SloResultSchema),
  generator: GeneratorFiguresSchema,
  rate_limits: RateLimitFiguresSchema,
  retries: RetryFiguresSchema,
  timeline: z.array(TimelineRowSchema),
  /**
   * `load --conversations`: the measured window's figures of each turn number ("1", "2", …) of
   * its conversations: TTFT by depth shows what the history costs. Empty otherwise.
   */
  by_turn: z.record(z.string(), WindowFiguresSchema).default({}),
  /** `--health-probe`: the probes of the measured window; null without a probe. */
  health: HealthFiguresSchema.nullable().default(null),
});
export type LoadSummary = z.infer<typeof LoadSummarySchema>;

/** One step of a capacity search. */
export const CapacityStepSchema = z.object({
  index: z.number().int(),
  phase: z.enum(['ramp', 'bisect']),
  /** Requests per second, or users with --users. */
  target: z.number(),
  good: z.boolean(),
  /** Why a step is not good: an SLO, saturation; empty when good. */
  reasons: z.array(z.string()),
  dir: z.string(),
  offered_rate: Rate,
  sent_rate: Rate,
  ok_rate_per_s: Rate,
  goodput: Rate,
  rate_limited_rate: Rate,
  error_rate: Rate,
  /** Issue 27: TTFT leads the capacity table (absent in older results: null). */
  ttft_p50_ms: Rate.default(null),
  ttft_p95_ms: Rate.default(null),
  ttfp_p50_ms: Rate,
  ttfp_p95_ms: Rate,
  total_p95_ms: Rate,
  response_p95_ms: Rate,
  /** Issue 27 §6: TPOT per token p50 and output tokens per second of the step's measured window (null: not counted). */
  tpot_per_token_p50_ms: Rate.default(null),
  output_tokens_per_s: Rate.default(null),
  /** ITL p95 of the step's measured window (pooled answer gaps, metrics/load-gaps); null without gaps or in older results. */
  itl_p95_ms: Rate.default(null),
  ttfp_rise: Rate,
  warning: z.string().nullable(),
  /** The step's timing uncertainty: its generator's event-loop delay (null when not measured). */
  loop_delay_ms: LoopDelaySchema.nullable().default(null),
  /** `--health-probe`: failing probes of the step's measured window, of how many; null without a probe. */
  health_failures: z.number().int().nullable().optional(),
  health_probes: z.number().int().nullable().optional(),
});
export type CapacityStep = z.infer<typeof CapacityStepSchema>;

export const CapacityResultSchema = z.object({
  capacity_version: z.literal(CAPACITY_VERSION),
  unit: z.enum(['requests_per_s', 'users']),
  /** The highest good target; null when even the first step failed. */
  sustainable: Rate,
  /** The lowest bad target above it (the knee); null when no step failed. */
  knee: Rate,
  /** Why the search stopped. */
  stopped: z.enum([
    'converged',
    'max_steps',
    'max_duration',
    'no_knee',
    'interrupted',
    'floor',
    'max_target',
    'unhealthy',
  ]),
  precision: z.number(),
  slos: z.array(z.string()),
  steps: z.array(CapacityStepSchema),
  duration_s: z.number(),
});
export type CapacityResult = z.infer<typeof CapacityResultSchema>;
