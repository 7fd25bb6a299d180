/**
 * @module records/health-probe
 * The health probe of a load run (`load --health-probe PATH`): every probe as generator.json's
 * `health_probe` holds it, and the figures summary.json derives from them (`health`). A probe
 * fails when it gets no answer (a refused connection, a timeout) or an answer that is not 2xx — a
 * readiness probe's 503 `{"error_code": "SERVICE_UNAVAILABLE", "detail": "Request threadpool
 * saturated for 12.3s (5 requests queued)"}` on a saturated service.
 */
import { z } from 'zod';
import { LatencyStatsSchema } from './summary.js';

export const HealthSampleSchema = z.object({
  /** When the probe was sent, ms after the schedule's zero. */
  offset_ms: z.number(),
  /** Until the whole answer was read; null without an answer. */
  ms: z.number().nullable(),
  /** The HTTP status; null without an answer. */
  status: z.number().int().nullable(),
  /** Why it failed: the transport error, or the answer's `detail` (else its start); null when it passed. */
  error: z.string().nullable(),
});
export type HealthSample = z.infer<typeof HealthSampleSchema>;

/** generator.json `health_probe`. */
export const HealthProbeRunSchema = z.object({
  /** As given: a path under the base URL, or a whole URL. */
  path: z.string(),
  interval_ms: z.number(),
  samples: z.array(HealthSampleSchema),
});
export type HealthProbeRun = z.infer<typeof HealthProbeRunSchema>;

export const isHealthFailure = (s: Pick<HealthSample, 'status'>): boolean => s.status === null || s.status < 200 || s.status > 299;

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
