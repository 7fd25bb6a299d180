/**
 * @module api/health
 * The service's probes (backend/onyx/server/manage/get_state.py at v4.7.0-cloud.1), public (no token):
 * - `GET {base}/health`, liveness, in every release: `{"success": true, "message": "ok", "data": null}`.
 * - `GET {base}/health/ready`, readiness, from v4.7: 200 with the request thread pool's depth while
 *   it can serve; 503 `{"error_code": "SERVICE_UNAVAILABLE", "detail": "Request threadpool saturated
 *   for 12.3s (5 requests queued)"}` once every thread token has been borrowed with at least one
 *   request waiting for a thread, at every probe, for 10 s (`_UNREADY_AFTER_SECONDS`).
 */
import { z } from 'zod';

export const HEALTH_PATH = '/health';
export const READINESS_PATH = '/health/ready';

/** The pool depth `/health/ready` reports (`StatusResponse[dict[str, float]]`: numbers as floats). */
export const ThreadpoolDepthSchema = z.looseObject({
  threadpool_total_tokens: z.number(),
  threadpool_borrowed_tokens: z.number(),
  threadpool_tasks_waiting: z.number(),
});
export type ThreadpoolDepth = z.infer<typeof ThreadpoolDepthSchema>;

/** 200 of either probe (`data` is null for `/health`). */
export const HealthOkSchema = z.looseObject({
  success: z.boolean(),
  message: z.string().nullable().optional(),
  data: ThreadpoolDepthSchema.nullable().optional(),
});
export type HealthOk = z.infer<typeof HealthOkSchema>;

/** 503 of `/health/ready`. */
export const NotReadySchema = z.looseObject({
  error_code: z.literal('SERVICE_UNAVAILABLE'),
  detail: z.string(),
});

/** The service's 503 detail: seconds with one decimal, the queue depth rounded (Python `:.1f`, `:.0f`). */
export function notReadyDetail(saturatedForMs: number, tasksWaiting: number): string {
  return `Request threadpool saturated for ${(saturatedForMs / 1000).toFixed(1)}s (${tasksWaiting.toFixed(0)} requests queued)`;
}
