/**
 * @module runner/early-stop
 * Stops a run that cannot succeed (issue 3 §3, issue 11): going on would only produce a report full
 * of the same error.
 * - On the first attempts of the first `min(concurrency, plan, 5)` requests sent: all failed to
 *   reach the target (refused, host not found, TLS), or all were refused with 401/403.
 * - On the final outcomes (after any retries) of the first `finalSample` requests: all failed the
 *   same way (the same status, or class and code: runner/verdict), e.g. every one a 404 because
 *   --base-url lacks its /api prefix, or a 429 that --retry-429 did not get past.
 * One slow or lucky request is not enough either way.
 */
import type { Exchange } from '../client/exchange.js';
import { UNREACHABLE_CODES } from '../client/http-errors.js';
import { RunError } from '../errors.js';
import { failureKey, sameFailureError } from './verdict.js';

/** Requests whose final outcomes decide the same-failure stop. */
export const SAME_FAILURE_SAMPLE = 5;

export interface EarlyStop {
  /** Feeds the first attempt of the request sent `sequence`-th (from 0); returns the error once decided. */
  observe(sequence: number, exchange: Exchange): RunError | undefined;
  /** Feeds the final attempt of the request sent `sequence`-th; returns the error once decided. */
  observeFinal(sequence: number, exchange: Exchange): RunError | undefined;
}

/**
 * Watches the first `sample` first attempts and the first `finalSample` final outcomes of the
 * requests sent to `baseUrl` (0 turns a rule off: a plan no longer than the sample gains nothing
 * from stopping, and its end-of-run verdict says the same).
 */
export function createEarlyStop(baseUrl: string, sample: number, finalSample = 0): EarlyStop {
  const seen: Exchange[] = [];
  const finals: Exchange[] = [];
  let decided = sample <= 0;
  let decidedFinal = finalSample <= 0;
  return {
    observe(sequence, exchange) {
      if (decided || sequence >= sample) return undefined;
      seen.push(exchange);
      if (seen.length < sample) return undefined;
      decided = true;
      return verdict(baseUrl, seen);
    },
    observeFinal(sequence, exchange) {
      if (decidedFinal || sequence >= finalSample) return undefined;
      finals.push(exchange);
      if (finals.length < finalSample) return undefined;
      decidedFinal = true;
      const key = failureKey(finals[0]!);
      if (key === null || !finals.every((e) => failureKey(e) === key)) return undefined;
      return sameFailureError(baseUrl, finals[0]!, finals.length, 'first');
    },
  };
}

function verdict(baseUrl: string, exchanges: readonly Exchange[]): RunError | undefined {
  const first = exchanges[0];
  if (first === undefined) return undefined;
  if (exchanges.every((e) => e.outcome === 'network' && UNREACHABLE_CODES.has(e.error_code ?? ''))) {
    const why = first.error_code === 'ECONNREFUSED' ? 'connection refused' : `host not found (${first.error_code})`;
    return new RunError(`cannot reach ${baseUrl}: ${why}`, {
      hint: 'check --base-url (it includes any /api prefix) and that the service is up',
    });
  }
  if (exchanges.every((e) => e.outcome === 'network' && isTlsFailure(e.error_code))) {
    return new RunError(`cannot reach ${baseUrl}: the TLS handshake failed (${first.error_code})`, {
      hint: 'an https:// URL to a plain-HTTP port, or a certificate this machine does not trust',
    });
  }
  const status = first.http_status;
  if ((status === 401 || status === 403) && exchanges.every((e) => e.http_status === 401 || e.http_status === 403)) {
    return new RunError(
      `every request was refused with ${status}: ${first.error_body ?? `HTTP ${status}`} — check the token`,
      {
        hint: 'pass it with --token, CHATBENCH_TOKEN or --token-file; it needs the chat scopes',
      },
    );
  }
  return undefined;
}

/** Node's and OpenSSL's codes for a failed TLS handshake (ERR_SSL_*, EPROTO, certificate errors). */
const isTlsFailure = (code: string | null): boolean => code !== null && /SSL|TLS|EPROTO|CERT/.test(code);
