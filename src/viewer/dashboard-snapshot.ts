/**
 * @module viewer/dashboard-snapshot
 * What `--dashboard`'s page reads once a second from `/api/snapshot`: the run's figures over time,
 * its outcomes, health, capacity steps and the state of its SLOs and gates. The server makes it
 * (dashboard/snapshot); the page (viewer/ui/dashboard) only draws it, so the schema is the one
 * contract between them. The SLO and gate states are the verdict layer's (src/verdict), never
 * recomputed here or in the page.
 */
import { z } from 'zod';
import { CapacityStepSchema } from '../records/load-summary.js';
import { VerdictSchema } from '../verdict/verdict.js';

const Quantiles = z.object({ p50: z.number(), p95: z.number(), p99: z.number() });

/** One tick of the run: rates over the last second, latency quantiles (ms) over the last few seconds. */
export const DashboardPointSchema = z.object({
  /** Seconds since the run (or the capacity search) started. */
  t_s: z.number(),
  /** Capacity: the step (1, 2, …) the tick belongs to; null for a load run. */
  step: z.number().int().nullable(),
  offered: z.number(),
  sent: z.number(),
  ok: z.number(),
  rate_limited: z.number(),
  errors: z.number(),
  in_flight: z.number(),
  /** Of the ok requests ended in the quantile window; null when none ended. */
  ttft_ms: Quantiles.nullable(),
  ttfp_ms: Quantiles.nullable(),
});
export type DashboardPoint = z.infer<typeof DashboardPointSchema>;

export const DashboardConditionSchema = z.object({
  kind: z.enum(['slo', 'gate']),
  text: z.string(),
  /**
   * pending: decided on the whole run, at its end; per-step: a capacity search judges every step
   * on it (the steps say which held).
   */
  state: z.enum(['pending', 'per-step', 'met', 'broken']),
  /** The verdict's figures (`ttft_ms.p95 812 ms <= 1,500 ms`), once decided. */
  detail: z.string().nullable(),
});
export type DashboardCondition = z.infer<typeof DashboardConditionSchema>;

export const DashboardSnapshotSchema = z.object({
  command: z.enum(['load', 'capacity']),
  state: z.enum(['running', 'done']),
  elapsed_s: z.number(),
  /** The last ticks, oldest first (at most MAX_POINTS). */
  points: z.array(DashboardPointSchema),
  /** Requests ended so far, by outcome class. */
  outcomes: z.record(z.string(), z.number()),
  in_flight: z.number(),
  /** --health-probe: the latest probe; null without one. */
  health: z.object({ up: z.boolean(), ms: z.number().nullable(), probes: z.number(), failures: z.number() }).nullable(),
  /** Capacity: the steps decided so far. */
  steps: z.array(CapacityStepSchema),
  conditions: z.array(DashboardConditionSchema),
  /** The run's verdict once it has ended. */
  verdict: VerdictSchema.pick({ status: true, headline: true }).nullable(),
});
export type DashboardSnapshot = z.infer<typeof DashboardSnapshotSchema>;
