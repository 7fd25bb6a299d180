import { describe, expect, it } from 'vitest';
import type { ViewColumn, ViewData, ViewFigure } from '../view-data.js';
import { tokenSummaries, tokenSummaryCells, tokenSummaryLine, type TokenSummary } from './token-summary.js';

const figure = (name: string): ViewFigure => ({
  name,
  base: name.split('.')[0]!,
  kind: 'latency',
  higher_is_better: name.startsWith('output_tokens_per_s'),
  headline: false,
  min_n: null,
});
const column = (id: number, label: string, values: (number | null)[]): ViewColumn => ({
  id,
  run: 0,
  set: label,
  mode: 'stream',
  model_index: null,
  model_name: null,
  label,
  requests: 3,
  unchecked_questions: 0,
  figures: values.map((v, i) => (v === null ? null : { value: v, low: null, high: null, n: i < 3 ? 3 : 40 })),
});

describe('tokenSummaries over the overview rows', () => {
  const names = [
    'ttft_ms.p50',
    'output_tokens.p50',
    'output_tokens_per_s.p50',
    'tpot_per_token_ms.p50',
    'answer_gap_ms.p50',
    'answer_gap_ms.p99',
  ];
  const data: Pick<ViewData, 'figures' | 'columns'> = {
    figures: names.map(figure),
    columns: [
      column(0, 'fast', [900, 200, 50, 11, 20, 45]),
      column(1, 'plain', [800, null, null, null, null, null]),
      column(2, 'one-delta', [700, 30, 3, null, null, null]),
    ],
  };
  it('takes the p50s and the ITL p99 by name, with their counts; a column without any token figure is left out', () => {
    expect(tokenSummaries(data)).toEqual([
      {
        column: 0,
        label: 'fast',
        output_tokens: 200,
        output_tokens_per_s: 50,
        tpot_per_token_ms: 11,
        itl_p50_ms: 20,
        itl_p99_ms: 45,
        answers: 3,
        gaps: 40,
      },
      {
        column: 2,
        label: 'one-delta',
        output_tokens: 30,
        output_tokens_per_s: 3,
        tpot_per_token_ms: null,
        itl_p50_ms: null,
        itl_p99_ms: null,
        answers: 3,
        gaps: null,
      },
    ]);
  });
  it('is empty when the runs have no token figure (the overview keeps only rows some column has)', () => {
    expect(tokenSummaries({ figures: [figure('ttft_ms.p50')], columns: [column(0, 'fast', [900])] })).toEqual([]);
  });
});

describe('tokenSummaryLine and tokenSummaryCells', () => {
  const full: TokenSummary = {
    column: 0,
    label: 'fast',
    output_tokens: 212.5,
    output_tokens_per_s: 48.14,
    tpot_per_token_ms: 19.6,
    itl_p50_ms: 21,
    itl_p99_ms: 44.2,
    answers: 10,
    gaps: 200,
  };
  it.each([
    [full, 'set: median 213 tokens, 48.1 tokens/s · TPOT p50 19.6 ms · ITL p50 21.0 ms, p99 44.2 ms'],
    [{ ...full, tpot_per_token_ms: null, itl_p50_ms: null, itl_p99_ms: null }, 'set: median 213 tokens, 48.1 tokens/s'],
    [
      { ...full, output_tokens: null, output_tokens_per_s: null, itl_p99_ms: null },
      'set: TPOT p50 19.6 ms · ITL p50 21.0 ms',
    ],
  ])('prints what exists, each in its unit (%#)', (row, line) => {
    expect(tokenSummaryLine(row)).toBe(line);
  });
  it('prints NA in a cell the summary lacks', () => {
    expect(tokenSummaryCells({ ...full, output_tokens_per_s: null, itl_p99_ms: null })).toEqual({
      output_tokens: '213',
      output_tokens_per_s: '–',
      tpot_per_token_ms: '19.6 ms',
      itl_p50_ms: '21.0 ms',
      itl_p99_ms: '–',
    });
  });
});
