/**
 * @module sim/health
 * `GET {base}/health` (liveness, every release) and `GET {base}/health/ready` (readiness, v4.7+),
 * public as in the service (src/api/health.ts gives the bodies).
 */
import type { ServerResponse } from 'node:http';
import { pyFloat } from './encode/index.js';
import { sendJson } from './http.js';
import type { Threadpool } from './threadpool.js';

/** `StatusResponse(success=True, message="ok")`. */
export const replyLive = (res: ServerResponse) => sendJson(res, 200, { success: true, message: 'ok', data: null });

/** The service's readiness answer: the depth as floats (`dict[str, float]`), or the 503. */
export function replyReadiness(res: ServerResponse, pool: Threadpool): void {
  const sample = pool.readiness();
  if (!sample.ready) {
    sendJson(res, 503, { error_code: 'SERVICE_UNAVAILABLE', detail: sample.detail });
    return;
  }
  const data = Object.fromEntries(Object.entries(sample.depth).map(([key, value]) => [key, pyFloat(value as number)]));
  sendJson(res, 200, { success: true, message: 'ok', data });
}
