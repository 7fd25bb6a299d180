/**
 * @module runner/testing/fake-client
 * Test doubles for the runner (exported for tests only): a planned-request factory, an Exchange
 * factory, and a client whose every send waits on a gate the test opens, counting requests in flight.
 */
import { createCollector } from '../../client/collect.js';
import type { Exchange } from '../../client/exchange.js';
import type { SendMessageRequest } from '../../api/send-message.js';
import type { PlannedRequest } from '../../plan/planned-request.js';
import { requestKey } from '../../records/record.js';

/** Planned request number `index` (question q<index>, set "s", stream mode). */
export function plannedRequest(index: number, overrides: Partial<PlannedRequest> = {}): PlannedRequest {
  const question_id = `q${index}`;
  return {
    index,
    key: requestKey(question_id, 's', 'stream', 0),
    question_id,
    question: `question ${index}?`,
    category: null,
    metadata: {},
    expected_document_ids: [],
    set: 's',
    mode: 'stream',
    repeat: 0,
    model_names: null,
    body: { message: `question ${index}?`, stream: true },
    expectations: { expected_document_ids: [], must_contain: [], must_not_contain: [], expect_no_answer: false },
    ...overrides,
  };
}

/** An Exchange with no figures, the given outcome and fields; `sent` defaults to 0. */
export function fakeExchange(fields: Partial<Exchange> = {}): Exchange {
  const outcome = fields.outcome ?? 'ok';
  const body = createCollector({ sent: 0 }).finish(
    10,
    outcome === 'ok' ? undefined : { outcome, error_code: null, error_message: null },
  );
  return {
    ...body,
    outcome,
    http_status: 200,
    content_type: null,
    headers_ms: 1,
    rate_limit: null,
    sent: 0,
    started_at: '2030-01-01T00:00:00.000Z',
    error_body: null,
    framing: null,
    ...fields,
  };
}

export interface GatedClient {
  baseUrl: string;
  send(body: SendMessageRequest, signal?: AbortSignal): Promise<Exchange>;
  /** Bodies in the order they were sent. */
  sent: SendMessageRequest[];
  inFlight(): number;
  peak(): number;
  /** Resolves every send waiting now (and later ones when `always`) with `answer(body, n)`. */
  open(always?: boolean): void;
}

/**
 * A client whose sends wait until `open()`, then answer `answer(body, attemptNumberOfThisBody)`. A
 * send whose signal aborts while waiting resolves as cancelled, as the real client does.
 */
export function gatedClient(
  answer: (body: SendMessageRequest, attempt: number) => Exchange = () => fakeExchange(),
): GatedClient {
  const waiting = new Set<() => void>();
  const attempts = new Map<string, number>();
  const sent: SendMessageRequest[] = [];
  let inFlight = 0;
  let peak = 0;
  let opened = false;
  return {
    baseUrl: 'http://fake.invalid/api',
    sent,
    inFlight: () => inFlight,
    peak: () => peak,
    open(always = false) {
      opened = always;
      for (const release of [...waiting]) release();
    },
    send(body, signal) {
      sent.push(body);
      inFlight++;
      peak = Math.max(peak, inFlight);
      const attempt = (attempts.get(body.message) ?? 0) + 1;
      attempts.set(body.message, attempt);
      return new Promise<Exchange>((resolve) => {
        const finish = (exchange: Exchange) => {
          waiting.delete(release);
          signal?.removeEventListener('abort', cancel);
          inFlight--;
          resolve(exchange);
        };
        const release = () => finish(answer(body, attempt));
        const cancel = () => finish(fakeExchange({ outcome: 'cancelled' }));
        if (signal?.aborted) return cancel();
        signal?.addEventListener('abort', cancel, { once: true });
        if (opened) queueMicrotask(release);
        else waiting.add(release);
      });
    },
  };
}

/** Turns of the loop until `count` requests were sent (runPlan starts a lane a turn), at most 100. */
export async function untilSent(client: Pick<GatedClient, 'sent'>, count: number): Promise<void> {
  for (let turn = 0; turn < 100 && client.sent.length < count; turn++)
    await new Promise((resolve) => setImmediate(resolve));
}
