import { describe, expect, it } from 'vitest';
import { ExitCode } from '../errors.js';
import type { Gate } from '../figures/grammar.js';
import { formatFigureDelta, formatFigureValue } from '../figures/units.js';
import {
  comparisonOpenings,
  decide,
  decideCapacity,
  verdictHtml,
  verdictLine,
  verdictMarkdown,
  type SloOutcome,
} from './index.js';

const gate = (text: string, over: Partial<Gate> = {}): Gate => ({
  text,
  set: null,
  mode: null,
  turn: null,
  figure: 'pass_rate',
  stat: null,
  against: 'value',
  op: '>=',
  threshold: 0.8,
  significant: false,
  ...over,
});
const slo = (value: number | null, over: Partial<SloOutcome> = {}): SloOutcome => ({
  text: 'ttft_ms.p95<=1500',
  figure: 'ttft_ms.p95',
  value,
  passed: value !== null && value <= 1500,
  op: '<=',
  threshold: 1500,
  ...over,
});
const PAINT = {
  good: (t: string) => `<g>${t}</g>`,
  bad: (t: string) => `<b>${t}</b>`,
  warn: (t: string) => `<w>${t}</w>`,
};

describe('decide', () => {
  it('a broken SLO fails the run and the line names it in its units', () => {
    const v = decide({
      slos: [
        slo(2025.788),
        slo(300, { text: 'error_rate<=0.01', figure: 'error_rate', value: 0, passed: true, threshold: 0.01 }),
      ],
    });
    expect(v.status).toBe('failed');
    expect(v.exit_code).toBe(ExitCode.GateFailed);
    expect(v.headline).toBe('FAILED: 1 of 2 SLOs broken (ttft_ms.p95 2,026 ms > 1,500 ms)');
    expect(v.reasons[0]).toMatchObject({ kind: 'slo', passed: false });
  });

  it.each([
    // each rule on both sides of its threshold
    { name: 'SLO met', input: { slos: [slo(1499)] }, status: 'passed', code: 0, headline: 'PASSED: the SLO met' },
    {
      name: 'SLO broken',
      input: { slos: [slo(1501)] },
      status: 'failed',
      code: 1,
      headline: 'FAILED: 1 of 1 SLO broken (ttft_ms.p95 1,501 ms > 1,500 ms)',
    },
    {
      name: 'SLO with no value',
      input: { slos: [slo(null)] },
      status: 'failed',
      code: 1,
      headline: 'FAILED: 1 of 1 SLO broken (ttft_ms.p95 has no value)',
    },
    {
      name: 'goodput-only SLO broken',
      input: { slos: [slo(1501, { goodput_only: true })] },
      status: 'no-gate',
      code: 0,
      headline: 'DONE: no gate or SLO set',
    },
    {
      name: 'gate passed',
      input: { gates: [{ gate: gate('pass_rate>=0.8'), passed: true, value: 0.8 }] },
      status: 'passed',
      code: 0,
      headline: 'PASSED: the gate passed',
    },
    {
      name: 'gate failed',
      input: { gates: [{ gate: gate('pass_rate>=0.8'), passed: false, value: 0.7333 }] },
      status: 'failed',
      code: 1,
      headline: 'FAILED: 1 of 1 gate failed (pass_rate 73.3% < 80%)',
    },
    { name: 'nothing set', input: {}, status: 'no-gate', code: 0, headline: 'DONE: no gate or SLO set' },
    {
      name: 'interrupted wins',
      input: { interrupted: true, slos: [slo(1501)] },
      status: 'interrupted',
      code: 130,
      headline: 'INTERRUPTED; 1 of 1 SLO broken (ttft_ms.p95 1,501 ms > 1,500 ms)',
    },
    {
      name: 'run failed',
      input: {
        runFailed: 'every request failed alike',
        gates: [{ gate: gate('pass_rate>=0.8'), passed: true, value: 1 }],
      },
      status: 'run-failed',
      code: 3,
      headline: 'RUN FAILED: every request failed alike',
    },
  ])('$name', ({ input, status, code, headline }) => {
    const v = decide(input);
    expect([v.status, v.exit_code, v.headline]).toEqual([status, code, headline]);
  });

  it('a delta gate prints its change in points and names its group; both kinds are counted', () => {
    const v = decide({
      slos: [slo(900)],
      gates: [
        {
          gate: gate('pass_rate delta>=-0.02', { against: 'delta', threshold: -0.02 }),
          passed: false,
          value: -0.081,
          target: { label: 'accurate' },
        },
        {
          gate: gate('pass_rate delta>=-0.02', { against: 'delta', threshold: -0.02 }),
          passed: true,
          value: 0,
          target: { label: 'fast' },
        },
      ],
      detail: '75 requests',
    });
    expect(v.headline).toBe('FAILED: 1 of 2 gates failed (pass_rate delta -8.1 pts < -2 pts (accurate)) · 75 requests');
  });

  it('every renderer prints the same headline', () => {
    const v = decide({ slos: [slo(2026)], comparisons: ['a vs b: no clear winner'] });
    expect(verdictLine(v, PAINT)).toBe('<b>FAILED</b>: 1 of 1 SLO broken (ttft_ms.p95 2,026 ms > 1,500 ms)');
    expect(verdictMarkdown(v)[0]).toBe(`**${v.headline}** (exit 1)`);
    expect(verdictMarkdown(v)).toContain('- a vs b: no clear winner');
    expect(verdictHtml(v, String)).toContain(`<strong>${v.headline}</strong>`);
  });

  it('a capacity search is FOUND or FAILED', () => {
    expect(decideCapacity(true, '12/s', false)).toMatchObject({
      status: 'passed',
      exit_code: 0,
      headline: 'FOUND: 12/s',
    });
    expect(decideCapacity(false, 'none', false)).toMatchObject({ status: 'failed', exit_code: 1 });
    expect(decideCapacity(true, 'x', true).exit_code).toBe(130);
  });
});

describe('units', () => {
  it.each([
    ['ttft_ms.p95', 2025.788, '2,026 ms'],
    ['ttft_ms.p50', 12.34, '12.3 ms'],
    ['output_chars_per_s.p50', 534.2, '534 chars/s'],
    ['pass_rate', 0.8, '80%'],
    ['pass_rate', 0.7333, '73.3%'],
    ['citation_recall', 0.8125, '0.813'],
    ['goodput', 12.5, '12.5/s'],
    ['pre_answer_processing_seconds.p50', 1.234, '1.23 s'],
    ['late_sends', 3, '3'],
    ['ttft_ms', null, 'n/a'],
  ])('%s %s → %s', (name, value, text) => expect(formatFigureValue(name, value)).toBe(text));
  it('changes: points for shares, units for the rest', () => {
    expect(formatFigureDelta('pass_rate', 0.1)).toBe('+10 pts');
    expect(formatFigureDelta('citation_recall', -0.241)).toBe('-0.241');
    expect(formatFigureDelta('ttft_ms.p95', 118)).toBe('+118 ms');
  });
});

describe('comparisonOpenings (issue 27: one line per comparison, from the pair lines)', () => {
  it.each([
    {
      name: 'a pair line: who against whom, and its call',
      line: 'accurate vs fast (stream): pass rate +11.5 pts [+4.6 pts, +19.5 pts] significant; TTFT p50 ×1.76 significant · no clear winner (accurate: 8 significantly better, 3 worse)',
      want: 'accurate vs fast (stream): no clear winner (accurate: 8 significantly better, 3 worse)',
    },
    {
      name: 'a set named with a middle dot',
      line: 'b · x vs a: pass rate +1 pts (not significant, n = 5 questions) · best: a (b · x 1 significantly worse)',
      want: 'b · x vs a: best: a (b · x 1 significantly worse)',
    },
    {
      name: 'a line without a call stays whole',
      line: 'sets not compared: the run has no record of set b',
      want: 'sets not compared: the run has no record of set b',
    },
  ])('$name', ({ line, want }) => {
    expect(comparisonOpenings({ comparisons: [line] })).toEqual([want]);
  });
});
