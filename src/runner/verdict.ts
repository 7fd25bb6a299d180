/**
 * @module runner/verdict
 * When a run could not be carried out (exit 3): every request — or the first few, for the early
 * stop — failed the same way. Such a run measured nothing about the service but its refusal, and
 * its reports would be figures of nothing; the verdict names the failure and hints at the usual
 * cause by status (a base URL without its /api prefix answers 404 to everything). Every outcome
 * class but `ok` and `cancelled` is a failure; a class added to the record needs nothing here.
 */
import { RunError } from '../errors.js';
import { describeKinds, NEWER_SERVICE_HINT, silencedByUnknownKinds } from '../records/unknown-kinds.js';

/** What decides that two requests failed the same way. */
export interface FailureFields {
  readonly outcome: string;
  readonly http_status: number | null;
  readonly error_code: string | null;
  /** Unknown packet kinds the request saw (records name them): an empty answer then points at a newer protocol. */
  readonly unknown_part_kinds?: Readonly<Record<string, number>> | undefined;
}

/**
 * The failure's identity: the outcome class, with the HTTP status for an answer by status, or the
 * error code for a streaming or network error. null for `ok`, and for `cancelled` (the user
 * stopped the run: that is an interrupt, not a verdict on the service) and `abandoned` (the
 * client closed it on purpose, `load --abandon`).
 */
export function failureKey(f: FailureFields): string | null {
  if (f.outcome === 'ok' || f.outcome === 'cancelled' || f.outcome === 'abandoned') return null;
  if (f.http_status !== null && f.http_status >= 300) return `${f.outcome}|${f.http_status}`;
  if (f.outcome === 'stream_error' || f.outcome === 'network') return `${f.outcome}|${f.error_code ?? ''}`;
  return f.outcome;
}

/** How the failure reads: "HTTP 404", "the streaming error MODEL_ERROR", "timeout". */
export function describeFailure(f: FailureFields): string {
  if (f.http_status !== null && f.http_status >= 300) return `HTTP ${f.http_status}`;
  if (f.outcome === 'stream_error') return `the streaming error ${f.error_code ?? '(no code)'}`;
  if (f.outcome === 'network') return `a network error (${f.error_code ?? 'no code'})`;
  return f.outcome;
}

/** An empty answer after packets of kinds chatbench does not know: the answer may be in them. */
const emptiedByUnknownKinds = (f: FailureFields): boolean =>
  f.outcome === 'empty_answer' && silencedByUnknownKinds({ ...f, ttft_ms: null });

/** The usual cause of a failure shared by every request, and what to do about it. */
export function failureHint(f: FailureFields): string {
  if (emptiedByUnknownKinds(f)) return NEWER_SERVICE_HINT;
  const status = f.http_status ?? 0;
  if (status === 404) return "no such path: does --base-url include the service's path prefix (e.g. /api)?";
  if (status === 405)
    return "the path does not take POST: --base-url is the API's base (e.g. http://host/api), with nothing after it";
  if (status === 415)
    return "the service refused the JSON body: is --base-url the chat service's API (e.g. http://host/api), not a web page or a proxy?";
  if (status === 401 || status === 403)
    return 'check the token: pass it with --token, CHATBENCH_TOKEN or --token-file; it needs the chat scopes';
  if (status === 429 || f.outcome === 'rate_limited')
    return 'rate limited: retry with --retry-429 (it honours Retry-After), or send less: a lower --concurrency (load: a lower --rate or fewer users)';
  if (status >= 500) return `the service is failing (HTTP ${status}): check its health and logs before measuring it`;
  if (status >= 400)
    return "the service rejected every request: check the model override sets and the dataset's filters against the service";
  if (status >= 300) return 'the service redirects: give --base-url as the final address';
  if (f.outcome === 'timeout') return 'nothing came back within --timeout: raise it, or check that the service answers';
  if (f.outcome === 'stream_error')
    return 'every answer ended in the same streaming error: check the model override sets (provider, version) against the service';
  // Node's codes for a certificate no trusted CA vouches for (a self-signed or company CA).
  if (
    f.outcome === 'network' &&
    /^(UNABLE_TO_(VERIFY_LEAF_SIGNATURE|GET_ISSUER_CERT(_LOCALLY)?)|(DEPTH_ZERO_)?SELF_SIGNED_CERT(_IN_CHAIN)?)$/.test(
      f.error_code ?? '',
    )
  ) {
    return "the service's certificate is issued by a CA this machine does not trust: give its CA with --ca-file ca.pem (or NODE_EXTRA_CA_CERTS)";
  }
  if (f.outcome === 'network') return 'check --base-url and that the service is up';
  return "is --base-url the chat service's API (e.g. http://host/api)?";
}

/** The RunError of a failure shared by `count` requests: all of them, or the first `count` of the run. */
export function sameFailureError(
  target: string,
  f: FailureFields & { error_message?: string | null },
  count: number,
  of: 'all' | 'first',
): RunError {
  const message = f.error_message?.replace(/\s+/g, ' ').trim();
  const unknown = emptiedByUnknownKinds(f)
    ? ` after packets of unknown kinds (${describeKinds(f.unknown_part_kinds ?? {})} in the first)`
    : '';
  const detail = `${unknown}${message ? `: ${message.length > 160 ? `${message.slice(0, 159)}…` : message}` : ''}`;
  const which = of === 'all' ? `every request (${count} of ${count})` : `the first ${count} requests`;
  return new RunError(`${target}: ${which} failed the same way, with ${describeFailure(f)}${detail}`, {
    hint: failureHint(f),
  });
}

/** Tallies final outcomes by failure; `verdict()` says whether every request failed the same way. */
export interface FailureTally {
  add(f: FailureFields & { error_message?: string | null }): void;
  /** The RunError when every counted request failed and all alike; undefined otherwise (or none counted). */
  verdict(): RunError | undefined;
}

export function createFailureTally(target: string): FailureTally {
  let counted = 0;
  let firstKey: string | null | undefined;
  let first: (FailureFields & { error_message?: string | null }) | undefined;
  let alike = true;
  return {
    add(f) {
      if (f.outcome === 'cancelled' || f.outcome === 'abandoned') return;
      const key = failureKey(f);
      counted += 1;
      if (firstKey === undefined) {
        firstKey = key;
        first = f;
      }
      if (key === null || key !== firstKey) alike = false;
    },
    verdict() {
      if (counted === 0 || !alike || first === undefined) return undefined;
      return sameFailureError(target, first, counted, 'all');
    },
  };
}
