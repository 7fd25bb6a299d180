import { describe, expect, it } from 'vitest';
import { UsageError } from '../errors.js';
import { compareOp, describeGate, GATE_OPERATORS, parseGate } from './grammar.js';

describe('parseGate: every operator, figure kind and scope', () => {
  it.each([
    {
      text: 'citation_recall >= 0.8',
      want: {
        figure: 'citation_recall',
        stat: null,
        against: 'value',
        op: '>=',
        threshold: 0.8,
        significant: false,
        set: null,
        mode: null,
      },
    },
    { text: 'citation_recall delta >= -0.02', want: { against: 'delta', op: '>=', threshold: -0.02 } },
    {
      text: 'ttfp_ms.p95 ratio <= 1.20',
      want: { figure: 'ttfp_ms', stat: 'p95', against: 'ratio', op: '<=', threshold: 1.2 },
    },
    { text: 'pass_rate delta >= 0 significant', want: { figure: 'pass_rate', against: 'delta', significant: true } },
    {
      text: 'set:accurate mode:full ndcg_at_5 > 0.5',
      want: { set: 'accurate', mode: 'full', figure: 'ndcg_at_5', op: '>' },
    },
    {
      text: 'mode:stream set:fast-v2 error_rate < 0.01',
      want: { set: 'fast-v2', mode: 'stream', figure: 'error_rate', op: '<' },
    },
    { text: 'rate_limited_rate == 0', want: { figure: 'rate_limited_rate', op: '==', threshold: 0 } },
    { text: 'ttfp_ms.p99<=3000', want: { figure: 'ttfp_ms', stat: 'p99', op: '<=', threshold: 3000 } },
    { text: 'total_ms.p99_9 ratio < 1.5 significant', want: { stat: 'p99_9', against: 'ratio', significant: true } },
    { text: 'headers_ms.mean <= 200', want: { figure: 'headers_ms', stat: 'mean' } },
    { text: 'time_per_delta_ms.max < 1e3', want: { figure: 'time_per_delta_ms', stat: 'max', threshold: 1000 } },
    { text: 'first_citation_ms.p50 <= 900', want: { figure: 'first_citation_ms', stat: 'p50' } },
    { text: 'pass_at_n >= 0.95', want: { figure: 'pass_at_n' } },
    { text: 'pass_all_n >= .8', want: { figure: 'pass_all_n', threshold: 0.8 } },
    { text: 'flaky_rate <= 0.1', want: { figure: 'flaky_rate' } },
    { text: 'ok_rate >= 0.99', want: { figure: 'ok_rate' } },
    { text: 'retrieval_recall_at_5 delta > -0.05', want: { figure: 'retrieval_recall_at_5', against: 'delta' } },
    { text: '  invalid_citations  <=  +2 ', want: { figure: 'invalid_citations', threshold: 2 } },
  ])('$text', ({ text, want }) => {
    const gate = parseGate(text);
    expect(gate).toMatchObject({ text, ...want });
  });

  it('describes a gate in its normal form', () => {
    expect(describeGate(parseGate('set:a ttfp_ms.p95  ratio<=1.20 significant'))).toBe(
      'ttfp_ms.p95 ratio <= 1.2 significant',
    );
  });

  it.each(GATE_OPERATORS.map((op) => ({ op })))('compareOp $op at, below and above the threshold', ({ op }) => {
    const want = {
      '>=': [true, false, true],
      '<=': [true, true, false],
      '>': [false, false, true],
      '<': [false, true, false],
      '==': [true, false, false],
    }[op];
    expect([compareOp(1, op, 1), compareOp(0.5, op, 1), compareOp(2, op, 1)]).toEqual(want);
  });
});

describe('parseGate: every mistake, named precisely', () => {
  it.each([
    { text: '', message: '--gate "": empty gate' },
    {
      text: 'citation_recal >= 0.8',
      message: '--gate "citation_recal >= 0.8": unknown figure "citation_recal" (did you mean citation_recall?)',
    },
    { text: 'latency >= 1', message: '--gate "latency >= 1": unknown figure "latency"' },
    {
      text: 'ttfp_ms <= 2000',
      message:
        '--gate "ttfp_ms <= 2000": ttfp_ms needs a statistic: ttfp_ms.p95 (one of p50 p90 p95 p99 p99_9 mean max)',
    },
    {
      text: 'ttfp_ms.p96 <= 2000',
      message:
        '--gate "ttfp_ms.p96 <= 2000": unknown statistic "p96" of ttfp_ms (one of p50 p90 p95 p99 p99_9 mean max) (did you mean p90?)',
    },
    {
      text: 'ttfp_ms.p95.x <= 2000',
      message: '--gate "ttfp_ms.p95.x <= 2000": "ttfp_ms.p95.x": one statistic at most (ttfp_ms.STAT)',
    },
    {
      text: 'citation_recall.p95 >= 0.8',
      message:
        '--gate "citation_recall.p95 >= 0.8": citation_recall takes no statistic (".p95"); only latency figures do',
    },
    {
      text: 'citation_recall',
      message: '--gate "citation_recall": missing operator after citation_recall (one of >= <= > < ==)',
    },
    {
      text: 'citation_recall delta',
      message: '--gate "citation_recall delta": missing operator after citation_recall (one of >= <= > < ==)',
    },
    {
      text: 'citation_recall = 0.8',
      message: '--gate "citation_recall = 0.8": unknown operator "=" (did you mean ==?)',
    },
    {
      text: 'citation_recall => 0.8',
      message: '--gate "citation_recall => 0.8": unknown operator "=>" (did you mean >=?)',
    },
    {
      text: 'citation_recall != 0.8',
      message: '--gate "citation_recall != 0.8": unknown operator "!=" (one of >= <= > < ==)',
    },
    {
      text: 'citation_recall delt >= 0.8',
      message:
        '--gate "citation_recall delt >= 0.8": expected an operator (>= <= > < ==) or delta/ratio after citation_recall, found "delt" (did you mean delta?)',
    },
    { text: 'citation_recall >=', message: '--gate "citation_recall >=": missing number after ">="' },
    { text: 'citation_recall >= high', message: '--gate "citation_recall >= high": "high" is not a number' },
    {
      text: 'pass_rate >= 80%',
      message: '--gate "pass_rate >= 80%": "80%" is not a number (write shares as fractions: 0.8)',
    },
    {
      text: 'pass_rate >= 0.8 significant',
      message:
        '--gate "pass_rate >= 0.8 significant": "significant" needs delta or ratio: it qualifies a change against the baseline',
    },
    {
      text: 'pass_rate delta >= 0 signficant',
      message:
        '--gate "pass_rate delta >= 0 signficant": unexpected "signficant" after the number (did you mean significant?)',
    },
    { text: 'set: pass_rate >= 0.8', message: '--gate "set: pass_rate >= 0.8": set: needs a name (set:NAME)' },
    {
      text: 'set:a set:b pass_rate >= 0.8',
      message: '--gate "set:a set:b pass_rate >= 0.8": two set: scopes ("set:a" and "set:b"); write one gate per set',
    },
    {
      text: 'mode:both pass_rate >= 0.8',
      message: '--gate "mode:both pass_rate >= 0.8": unknown mode "both" (mode:stream or mode:full)',
    },
    {
      text: 'mode:full mode:full pass_rate >= 0.8',
      message: '--gate "mode:full mode:full pass_rate >= 0.8": two mode: scopes ("mode:full" and "mode:full")',
    },
    {
      text: 'sett:a pass_rate >= 0.8',
      message:
        '--gate "sett:a pass_rate >= 0.8": unknown scope "sett:a" (set:NAME, mode:stream|full or turn:N) (did you mean set?)',
    },
    { text: 'set:a', message: '--gate "set:a": missing figure after the scope' },
    { text: '>= 0.8', message: '--gate ">= 0.8": missing figure before ">="' },
  ])('$text', ({ text, message }) => {
    let error: unknown;
    try {
      parseGate(text);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toBe(message);
    expect((error as UsageError).exitCode).toBe(2);
  });

  it('names where a gate came from', () => {
    expect(() => parseGate('x >= 1', 'gates.json: gates.0 "x >= 1"')).toThrow(
      'gates.json: gates.0 "x >= 1": unknown figure "x"',
    );
  });
});
