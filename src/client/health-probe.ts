/**
 * @module client/health-probe
 * One GET of the service's health endpoint (`/health`, or v4.7's `/health/ready`) on a dispatcher
 * of its own, apart from the pool the requests use: a probe never waits for a request's
 * connection, and never takes one from a request. Reads the whole (small, capped) body so that a
 * 503's `detail` can say why (`Request threadpool saturated for 12.3s (5 requests queued)`).
 */
import { Agent, request } from 'undici';
import { tlsConnectOptions } from './trust.js';
import type { HealthSample } from '../records/health-probe.js';

/** A health answer is a few hundred bytes; more is read no further. */
const MAX_BODY_BYTES = 4096;

export interface HealthProber {
  /** Sends one probe; never rejects (a failure is a sample with its reason). `offset_ms` is the caller's. */
  probe(): Promise<Omit<HealthSample, 'offset_ms'>>;
  close(): Promise<void>;
}

/** What a failing answer says: the service's `detail` (or `message`), else the start of the body. */
export function failureDetail(body: string): string {
  try {
    const json = JSON.parse(body) as { detail?: unknown; message?: unknown; error_code?: unknown };
    const detail =
      typeof json.detail === 'string' ? json.detail : typeof json.message === 'string' ? json.message : null;
    if (detail !== null)
      return (typeof json.error_code === 'string' ? `${json.error_code} ${detail}` : detail).slice(0, 200);
  } catch {
    // not JSON: its start below
  }
  return body.replace(/\s+/g, ' ').trim().slice(0, 200);
}

/**
 * `url` is probed with `timeoutMs` for the whole answer. Probes may overlap (a slow one does not
 * delay the next, as an orchestrator's probes do not): the pool holds up to `connections`.
 */
export function createHealthProber(
  url: string,
  options: { timeoutMs: number; now: () => number; connections?: number },
): HealthProber {
  const dispatcher = new Agent({
    connections: options.connections ?? 4,
    keepAliveTimeout: 10_000,
    connect: tlsConnectOptions(),
  });
  return {
    async probe() {
      const started = options.now();
      try {
        const res = await request(url, {
          method: 'GET',
          dispatcher,
          signal: AbortSignal.timeout(options.timeoutMs),
          headers: { accept: 'application/json' },
        });
        const chunks: Buffer[] = [];
        let size = 0;
        for await (const chunk of res.body as AsyncIterable<Buffer>) {
          if (size < MAX_BODY_BYTES) chunks.push(chunk);
          size += chunk.length;
        }
        const ms = options.now() - started;
        const ok = res.statusCode >= 200 && res.statusCode <= 299;
        return {
          ms,
          status: res.statusCode,
          error: ok ? null : failureDetail(Buffer.concat(chunks).toString('utf8')) || null,
        };
      } catch (error) {
        const e = error as { code?: string; name?: string; cause?: { code?: string } };
        const reason =
          e.name === 'TimeoutError'
            ? `timeout after ${options.timeoutMs} ms`
            : (e.cause?.code ?? e.code ?? String(error));
        return { ms: null, status: null, error: reason };
      }
    },
    close: () => dispatcher.close(),
  };
}
