/**
 * @module cli/health-flags
 * `--health-probe PATH` and `--health-interval` of `load` and `capacity`: checked before anything
 * is sent, into what runLoad's `healthProbe` takes.
 */
import { UsageError } from '../errors.js';
import { parseDuration } from './duration.js';

export interface HealthArgs {
  'health-probe'?: string | undefined;
  'health-interval': string;
}

/** Longest wait for one probe's whole answer (an orchestrator's would have given up long before). */
export const HEALTH_TIMEOUT_MS = 10_000;

export const HEALTH_OPTIONS = {
  'health-probe': {
    type: 'string',
    describe:
      'Probe this path under the base URL (e.g. /health, /health/ready), or a whole URL, during the run; a non-2xx or no answer is a failure',
    group: 'Health:',
  },
  'health-interval': {
    type: 'string',
    default: '1s',
    describe: 'Time between two health probes (from 100ms to 60s)',
    group: 'Health:',
  },
} as const;

export function healthProbeOf(a: HealthArgs): { path: string; intervalMs: number; timeoutMs: number } | undefined {
  const intervalMs = parseDuration(a['health-interval'], 'health-interval', { positive: true, maxMs: 60_000 });
  if (intervalMs < 100) throw new UsageError(`--health-interval ${a['health-interval']}: at least 100ms`);
  const path = a['health-probe'];
  if (path === undefined) return undefined;
  if (!path.startsWith('/') && !/^https?:\/\/[^/\s]+/i.test(path))
    throw new UsageError(
      `--health-probe ${JSON.stringify(path)}: give a path starting with / (e.g. /health/ready) or an http(s) URL`,
    );
  return { path, intervalMs, timeoutMs: HEALTH_TIMEOUT_MS };
}
