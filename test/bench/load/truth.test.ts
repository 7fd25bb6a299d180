import { describe, expect, it } from 'vitest';
import type { SimTrace } from '../lib/sim-trace.js';
import { errorFigures, pairErrors } from './truth.js';

const trace = (message_id: number, arrival: number, part: number | null, delta: number | null): SimTrace => ({
  message_id,
  arrival,
  first_call: arrival,
  first_flush: arrival + 0.1,
  part_call: part,
  part_flush: part,
  delta_call: delta,
  delta_flush: delta,
});

describe('pairErrors', () => {
  it("takes each tool time less the server's write time after arrival, paired by message id", () => {
    const traces = [trace(1, 1000, 1040, 1190), trace(2, 5000, 5030, null), trace(3, 9000, null, null)];
    const out = pairErrors(
      [
        { message_id: 1, ttfp_ms: 41.5, ttft_ms: 191 },
        { message_id: 2, ttfp_ms: 30.25, ttft_ms: null },
        { message_id: 3, ttfp_ms: 5, ttft_ms: 5 }, // the server logged no line: nothing to compare
        { message_id: 9, ttfp_ms: 1, ttft_ms: 1 }, // the server never saw it
      ],
      traces,
    );
    expect(out.ttfp).toEqual([1.5, 0.25]);
    expect(out.ttft).toEqual([1]);
    expect(out.unpaired).toBe(1);
  });

  it('gives median and p95 of the errors, none of nothing', () => {
    expect(errorFigures([])).toEqual({ n: 0, median: null, p95: null });
    const f = errorFigures(Array.from({ length: 101 }, (_, k) => 100 - k));
    expect(f).toEqual({ n: 101, median: 50, p95: 95 });
  });
});
