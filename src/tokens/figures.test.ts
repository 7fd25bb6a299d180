import { describe, expect, it } from 'vitest';
import { makeRecord } from '../metrics/test-records.js';
import { createSummarizer } from '../metrics/summarize.js';
import { toLoadRecord, windowFigures } from '../metrics/load-window.js';
import { loadFigureValue } from '../metrics/load-figures.js';
import type { LoadSummary } from '../records/load-summary.js';
import { countInPieces, LONGEST_PIECE, tokenCounter } from './encodings.js';
import { NO_TOKEN_FIGURES, tokenFigures } from './figures.js';
import { createTokenCounting, withTokenFigures } from './count-records.js';

const fixed = (n: number) => () => n;

describe('token counts (gpt-tokenizer vectors)', () => {
  it('counts a known answer under o200k_base and cl100k_base', async () => {
    const o200k = await tokenCounter('o200k_base');
    const cl100k = await tokenCounter('cl100k_base');
    expect(o200k('The capital of France is Paris.')).toBe(7);
    expect(o200k('Roll back with `deploy rollback` [[1]](https://docs/x).')).toBe(16);
    // The encodings differ where it shows: Japanese text.
    expect(o200k('こんにちは、世界。ロールバックの手順')).toBe(10);
    expect(cl100k('こんにちは、世界。ロールバックの手順')).toBe(14);
    expect(o200k('')).toBe(0);
  });
});

describe('countInPieces: a run of letters longer than LONGEST_PIECE is counted in pieces', () => {
  const lengths = (text: string) => {
    const seen: number[] = [];
    countInPieces((piece) => seen.push(piece.length), text);
    return seen;
  };
  it('counts ordinary text whole, however long', () => {
    const text = 'lorem ipsum dolor sit amet '.repeat(400);
    expect(lengths(text)).toEqual([text.length]);
  });
  it('cuts a long run into pieces and keeps the text around it whole', () => {
    expect(lengths(`ab ${'x'.repeat(LONGEST_PIECE * 2 + 10)} cd`)).toEqual([3, LONGEST_PIECE, LONGEST_PIECE, 10, 3]);
  });
  it('never splits a surrogate pair', () => {
    const text = `${'x'.repeat(LONGEST_PIECE - 1)}${'😀'.repeat(10)}`;
    const pieces: string[] = [];
    countInPieces((piece) => pieces.push(piece), text);
    expect(pieces.join('')).toBe(text);
    expect(pieces.every((p) => !/[\uD800-\uDBFF]$/.test(p))).toBe(true);
  });
  it('the count of a long run stays close to the whole count (o200k_base)', async () => {
    const count = await tokenCounter('o200k_base');
    const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base');
    const run = 'ab'.repeat(1500);
    expect(Math.abs(count(run) - countTokens(run))).toBeLessThanOrEqual(2);
  });
});

describe('tokenFigures (vLLM TPOT, GuideLLM output tokens/s)', () => {
  const answer = { answer: 'x', answer_truncated: false, ttft_ms: 1000, total_ms: 3000 };
  it.each([
    // tokens, ttft, total → tokens/s = tokens / total; TPOT = (total - ttft) / (tokens - 1)
    { tokens: 101, ttft: 1000, total: 3000, perS: 33.67, tpot: 20 },
    { tokens: 2, ttft: 500, total: 600, perS: 3.33, tpot: 100 },
    { tokens: 1, ttft: 500, total: 600, perS: 1.67, tpot: null }, // one token: no time per output token
    { tokens: 0, ttft: 500, total: 600, perS: 0, tpot: null },
    { tokens: 10, ttft: null, total: 600, perS: 16.67, tpot: null }, // no TTFT (full mode)
    { tokens: 10, ttft: 500, total: 0, perS: null, tpot: null }, // total before TTFT: no span
  ])('$tokens tokens, TTFT $ttft, total $total', ({ tokens, ttft, total, perS, tpot }) => {
    expect(tokenFigures({ ...answer, ttft_ms: ttft, total_ms: total }, fixed(tokens))).toEqual({
      output_tokens: tokens,
      output_tokens_per_s: perS,
      tpot_per_token_ms: tpot,
    });
  });
  it('a cut answer (answer_truncated) has no count, never the count of its start', () => {
    expect(tokenFigures({ ...answer, answer_truncated: true }, fixed(5))).toEqual(NO_TOKEN_FIGURES);
    expect(tokenFigures({ ...answer, answer: null }, fixed(5))).toEqual(NO_TOKEN_FIGURES);
  });
});

describe('token figures in the summary', () => {
  it('gives output tokens, tokens/s and TPOT per token by set, and the run-window throughput', async () => {
    const count = createTokenCounting(new Map([['b', 'cl100k_base' as const]]));
    const start = Date.parse('2026-01-01T00:00:00.000Z');
    const records = [
      makeRecord({
        key: 'a1',
        set: 'a',
        answer: 'The capital of France is Paris.',
        ttft_ms: 400,
        total_ms: 1000,
        started_at: new Date(start).toISOString(),
      }),
      makeRecord({
        key: 'a2',
        set: 'a',
        answer: 'The capital of France is Paris.',
        answer_truncated: true,
        ttft_ms: 400,
        total_ms: 1000,
        started_at: new Date(start + 1000).toISOString(),
      }),
      makeRecord({
        key: 'b1',
        set: 'b',
        answer: 'こんにちは、世界。ロールバックの手順',
        ttft_ms: 300,
        total_ms: 1000,
        started_at: new Date(start + 1000).toISOString(),
      }),
    ];
    const summarizer = createSummarizer();
    for (const record of records) summarizer.add(await count(record));
    const summary = summarizer.finish();
    expect(summary.run.duration_s).toBe(2);
    const [a, b] = summary.groups;
    expect(a?.latency.output_tokens?.count).toBe(1); // the cut answer is not counted
    expect(a?.latency.output_tokens?.p50).toBe(7);
    expect(a?.latency.output_tokens_per_s?.p50).toBe(7); // 7 tokens / 1 s
    expect(a?.latency.tpot_per_token_ms?.p50).toBe(100); // (1000 - 400) / 6
    expect(a?.output_tokens_total).toBe(7);
    expect(a?.output_throughput_tokens_per_s).toBe(3.5); // 7 tokens / the run's 2 s
    expect(b?.latency.output_tokens?.p50).toBe(14); // cl100k_base, the set's encoding
    expect(b?.output_throughput_tokens_per_s).toBe(7);
  });
  it('counts each model of a multi-model record', () => {
    const record = makeRecord({ answer: 'The capital of France is Paris.', models: [] });
    expect(withTokenFigures(record, fixed(3)).output_tokens).toBe(3);
  });
});

describe('token figures of a load window', () => {
  it('sums the ok answers counted over the window and takes TPOT per token percentiles', () => {
    const counted = (over: Parameters<typeof makeRecord>[0]) =>
      toLoadRecord(
        withTokenFigures(
          makeRecord({ answer: 'The capital of France is Paris.', ttft_ms: 400, total_ms: 1000, ...over }),
          fixed(7),
        ),
      );
    const records = [
      counted({ key: 'a', sent_offset_ms: 0 }),
      counted({ key: 'b', sent_offset_ms: 100, ttft_ms: 100 }),
      toLoadRecord(makeRecord({ key: 'c', sent_offset_ms: 200 })),
    ];
    const w = windowFigures({ name: 'measured', start_ms: 0, end_ms: 2000 }, records, 0, () => true);
    // 7 + 7 counted tokens over the 2 s window; the uncounted record adds nothing.
    expect(w.tokens?.output_tokens_total).toBe(14);
    expect(w.tokens?.output_throughput_tokens_per_s).toBe(7);
    expect(w.tokens?.tpot_per_token_ms?.count).toBe(2);
    expect(w.tokens?.tpot_per_token_ms?.max).toBe(150); // (1000 - 100) / 6
    expect(
      windowFigures(
        { name: 'measured', start_ms: 0, end_ms: 2000 },
        [toLoadRecord(makeRecord({ sent_offset_ms: 0 }))],
        0,
        () => true,
      ).tokens,
    ).toBeNull();
    // A load gate or SLO on tpot_per_token_ms reads the window's token figures.
    const summary = { windows: { measured: w }, by_turn: {} } as unknown as LoadSummary;
    expect(loadFigureValue(summary, 'tpot_per_token_ms', 'max')).toBe(150);
  });
});

describe('counted once', () => {
  it('keeps the token figures a record already has (a baseline counts before it trims the answer)', () => {
    const counted = withTokenFigures(makeRecord({ answer: 'whole answer', ttft_ms: 100, total_ms: 1000 }), fixed(50));
    const trimmed = { ...counted, answer: 'whole' };
    expect(withTokenFigures(trimmed, fixed(1)).output_tokens).toBe(50);
  });
});
