import { describe, expect, it } from 'vitest';
import { emptyFigures } from './full-response.js';
import { exchangeOf, type BodyFigures, type Exchange } from './exchange.js';

const http = {
  http_status: 200,
  content_type: 'application/x-ndjson',
  headers_ms: 1.5,
  rate_limit: null,
  error_body: null,
  framing: 'ndjson' as const,
  sent: 12.25,
  started_at: '2026-01-01T00:00:00.000Z',
};

/** What settle built before exchangeOf: a copy of the figures, then the HTTP fields set on it in order. */
function assigned(figures: BodyFigures): Exchange {
  const exchange = Object.assign({}, figures) as Exchange;
  for (const [key, value] of Object.entries(http)) (exchange as Record<string, unknown>)[key] = value;
  return exchange;
}

describe('exchangeOf', () => {
  const full: BodyFigures = { ...emptyFigures(3.5), outcome: 'ok', answer: 'Twenty-five days.', answer_chars: 17 };
  // A stream's figures have another key order (error_model among them, models last).
  const { models, answered_models, ...rest } = full;
  const stream = { ...rest, error_model: null, answered_models, models } as BodyFigures;
  const withUndefined = { ...full, pre_answer_processing_seconds: undefined } as unknown as BodyFigures;

  it.each([
    ['a full answer', full],
    ['a stream', stream],
    ['a body with an undefined value', withUndefined],
  ])('has the keys, order and values of a copy with the HTTP fields added (%s)', (_, figures) => {
    for (let i = 0; i < 3; i++) {
      const exchange = exchangeOf(figures, http);
      expect(Object.keys(exchange)).toEqual(Object.keys(assigned(figures)));
      expect(JSON.stringify(exchange)).toBe(JSON.stringify(assigned(figures)));
      expect(exchange).toEqual(assigned(figures));
      expect(exchange).not.toBe(figures);
    }
  });

  it('keeps the order of an HTTP field the body already has', () => {
    const figures = { ...full, http_status: 0 } as unknown as BodyFigures;
    const exchange = exchangeOf(figures, http);
    expect(Object.keys(exchange)).toEqual(Object.keys(assigned(figures)));
    expect(exchange.http_status).toBe(200);
  });
});
