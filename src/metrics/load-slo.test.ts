import { describe, expect, it } from 'vitest';
import { UsageError } from '../errors.js';
import { createGoodPredicate, parseSlo } from './load-slo.js';

describe('parseSlo', () => {
  it.each([
    { text: 'ttfp_ms.p95<=2000', figure: 'ttfp_ms', stat: 'p95', perRequest: false, threshold: 2000 },
    { text: 'error_rate<=0.01', figure: 'error_rate', stat: null, perRequest: false, threshold: 0.01 },
    { text: 'rate_limited_rate <= 0.05', figure: 'rate_limited_rate', stat: null, perRequest: false, threshold: 0.05 },
    { text: 'ttfp_ms<=1500', figure: 'ttfp_ms', stat: 'max', perRequest: true, threshold: 1500 },
    { text: 'response_ms.p99 < 8000', figure: 'response_ms', stat: 'p99', perRequest: false, threshold: 8000 },
    { text: 'goodput >= 20', figure: 'goodput', stat: null, perRequest: false, threshold: 20 },
  ])('$text', ({ text, figure, stat, perRequest, threshold }) => {
    const slo = parseSlo(text);
    expect(slo.perRequest).toBe(perRequest);
    expect(slo.gate).toMatchObject({ text, figure, stat, threshold });
  });

  it.each([
    { text: 'ttfp_m.p95<=2000', message: /unknown figure "ttfp_m" \(did you mean ttfp_ms\?\)/ },
    { text: 'respons_ms.p95<=2000', message: /did you mean response_ms/ },
    { text: 'set:a error_rate<=0.01', message: /no set:\/mode: scope/ },
    { text: 'error_rate delta <= 0.01', message: /needs a baseline/ },
    { text: 'error_rate<=1%', message: /write shares as fractions: 0.01/ },
  ])('refuses $text', ({ text, message }) => {
    expect(() => parseSlo(text)).toThrow(UsageError);
    expect(() => parseSlo(text)).toThrow(message);
  });
});

describe('createGoodPredicate', () => {
  const base = {
    outcome: 'ok',
    headers_ms: 5,
    ttfp_ms: 100,
    ttft_ms: 200,
    total_ms: 1000,
    response_ms: 1200,
    queue_ms: 200,
  };
  it('needs every latency SLO met and the figure present; ignores rate SLOs', () => {
    const good = createGoodPredicate([
      parseSlo('ttfp_ms.p95<=150'),
      parseSlo('response_ms<=1500'),
      parseSlo('error_rate<=0'),
    ]);
    expect(good(base)).toBe(true);
    expect(good({ ...base, response_ms: 1600 })).toBe(false);
    expect(good({ ...base, ttfp_ms: null })).toBe(false);
    expect(good({ ...base, outcome: 'timeout' })).toBe(false);
  });
});
