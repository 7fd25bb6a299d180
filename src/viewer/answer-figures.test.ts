import { describe, expect, it } from 'vitest';
import { makeModel, makeRecord } from '../metrics/test-records.js';
import { withTokenFigures } from '../tokens/count-records.js';
import { recordAnswerFigures } from './answer-figures.js';
import { tokenLine } from './ui/token-line.js';

// 51 tokens over 1,000 ms with TTFT 100 ms: 51 tokens/s, TPOT (1000 − 100) / 50 = 18 ms.
const counted = (over: Parameters<typeof makeRecord>[0]) =>
  withTokenFigures(makeRecord({ answer: 'an answer', ttft_ms: 100, total_ms: 1000, ...over }), () => 51);

describe("an answer's token figures and its own ITL (question page)", () => {
  it('counts as the reports do and takes exact percentiles over its own gaps', () => {
    const [figures] = recordAnswerFigures(counted({ answer_gaps_ms: [10, 20, 30, 40, 100] }));
    expect(figures).toEqual({
      output_tokens: 51,
      output_tokens_per_s: 51,
      tpot_per_token_ms: 18,
      itl_p50_ms: 30,
      // Linear interpolation at rank 0.95 × 4 = 3.8: 40 + 0.8 × 60.
      itl_p95_ms: expect.closeTo(88, 9),
      itl_gaps: 5,
    });
    expect(tokenLine(figures)).toBe('51 tokens · 51.0 tokens/s · TPOT 18.0 ms · ITL p50 30.0 ms, p95 88.0 ms (5 gaps)');
  });

  it('gives each model of a multi-model record its own, in models[] order', () => {
    const record = counted({
      models: [makeModel(0, { answer_gaps_ms: [5] }), makeModel(1, { answer_gaps_ms: [] })],
    });
    const [first, second] = recordAnswerFigures(record);
    expect(first).toMatchObject({ itl_p50_ms: 5, itl_p95_ms: 5, itl_gaps: 1 });
    expect(second).toMatchObject({ itl_p50_ms: null, itl_p95_ms: null, itl_gaps: 0 });
  });

  it('shows nothing it lacks: a cut answer has no tokens, a full response no gaps', () => {
    const [cut] = recordAnswerFigures(counted({ answer_truncated: true, answer_gaps_ms: [] }));
    expect(cut).toMatchObject({ output_tokens: null, tpot_per_token_ms: null, itl_p50_ms: null });
    expect(tokenLine(cut)).toBeNull();
    expect(tokenLine(undefined)).toBeNull();
  });
});
