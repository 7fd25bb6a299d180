/**
 * @module records/health-probe
 * The health probe of a load run (`load --health-probe PATH`): every probe as generator.json's
 * `health_probe` holds it, and the figures summary.json derives from them (`health`). A probe
 * fails when it gets no answer (a refused connection, a timeout) or an answer that is not 2xx — a
 * readiness probe's 503 `{"error_code": "SERVICE_UNAVAILABLE", "detail": "Request threadpool
 * saturated for 12.3s (5 requests queued)"}` on a saturated service. (summary.json's `health`
 * figures are in load-summary.ts: this file is imported by generator-health.ts, which summary.ts
 * imports, so it imports neither.)
 */
import { z } from 'zod';

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

export const isHealthFailure = (s: Pick<HealthSample, 'status'>): boolean =>
  s.status === null || s.status < 200 || s.status > 299;
