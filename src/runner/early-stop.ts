/**
 * @module runner/early-stop
 * Stops a run that cannot succeed (issue 3 §3): when the first requests all fail to reach the target
 * (refused, host not found), or are all refused with 401/403, going on would only produce a report
 * full of the same error. Judged on the first attempts of the first `min(concurrency, plan, 5)`
 * requests sent, so one slow or lucky request is not enough either way.
 */
import type { Exchange } from '../client/exchange.js';
import { UNREACHABLE_CODES } from '../client/http-errors.js';
import { RunError } from '../errors.js';

export interface EarlyStop {
  /** Feeds the first attempt of the request sent `sequence`-th (from 0); returns the error once decided. */
  observe(sequence: number, exchange: Exchange): RunError | undefined;
}

/** Watches the first `sample` requests sent to `baseUrl`. */
export function createEarlyStop(baseUrl: string, sample: number): EarlyStop {
  const seen: Exchange[] = [];
  let decided = sample <= 0;
  return {
    observe(sequence, exchange) {
      if (decided || sequence >= sample) return undefined;
      seen.push(exchange);
      if (seen.length < sample) return undefined;
      decided = true;
      return verdict(baseUrl, seen);
    },
  };
}

function verdict(baseUrl: string, exchanges: readonly Exchange[]): RunError | undefined {
  const first = exchanges[0];
  if (first === undefined) return undefined;
  if (exchanges.every((e) => e.outcome === 'network' && UNREACHABLE_CODES.has(e.error_code ?? ''))) {
    const why = first.error_code === 'ECONNREFUSED' ? 'connection refused' : `host not found (${first.error_code})`;
    return new RunError(`cannot reach ${baseUrl}: ${why}`, { hint: 'check --base-url (it includes any /api prefix) and that the service is up' });
  }
  if (exchanges.every((e) => e.outcome === 'network' && isTlsFailure(e.error_code))) {
    return new RunError(`cannot reach ${baseUrl}: the TLS handshake failed (${first.error_code})`, {
      hint: 'an https:// URL to a plain-HTTP port, or a certificate this machine does not trust',
    });
  }
  const status = first.http_status;
  if ((status === 401 || status === 403) && exchanges.every((e) => e.http_status === 401 || e.http_status === 403)) {
    return new RunError(`every request was refused with ${status}: ${first.error_body ?? `HTTP ${status}`} — check the token`, {
      hint: 'pass it with --token, CHATBENCH_TOKEN or --token-file; it needs the chat scopes',
    });
  }
  return undefined;
}

/** Node's and OpenSSL's codes for a failed TLS handshake (ERR_SSL_*, EPROTO, certificate errors). */
const isTlsFailure = (code: string | null): boolean => code !== null && /SSL|TLS|EPROTO|CERT/.test(code);
