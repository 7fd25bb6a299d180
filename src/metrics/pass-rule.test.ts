import { describe, expect, it } from 'vitest';
import { UsageError } from '../errors.js';
import {
  applyPassRule,
  DEFAULT_PASS_RULE,
  describePassRule,
  judgedFiguresOf,
  parsePassRule,
  type PassSubject,
} from './pass-rule.js';
import { makeScores } from './test-records.js';

const subject = (over: Partial<PassSubject> = {}): PassSubject => ({
  outcome: 'ok',
  scores: makeScores({ citation_recall: 1, correctness: 0.8 }),
  checks: {},
  judge: null,
  ...over,
});

describe('parsePassRule', () => {
  it('no --pass is the default rule, described in words', () => {
    expect(parsePassRule([])).toBe(DEFAULT_PASS_RULE);
    expect(describePassRule(DEFAULT_PASS_RULE)).toMatch(/^default: ok, no invalid citation/);
  });
  it('reads conditions in the gate grammar and the word default', () => {
    const rule = parsePassRule(['citation_recall > 0', 'default', 'correctness>=0.7', 'tone >= 1'], ['tone']);
    expect(rule.includesDefault).toBe(true);
    expect(rule.conditions.map((c) => [c.figure, c.op, c.threshold])).toEqual([
      ['citation_recall', '>', 0],
      ['correctness', '>=', 0.7],
      ['tone', '>=', 1],
    ]);
    expect(describePassRule(rule)).toBe(
      'ok and the default rule and citation_recall > 0 and correctness >= 0.7 and tone >= 1',
    );
    expect(judgedFiguresOf(rule)).toEqual(['correctness']);
  });
  it.each([
    { text: 'set:fast correctness >= 0.7', message: /no set:, mode: or turn: scope/ },
    { text: 'turn:2 correctness >= 0.7', message: /no set:, mode: or turn: scope/ },
    { text: 'correctness delta >= 0', message: /delta belongs in --gate/ },
    { text: 'pass_rate >= 0.9', message: /rates belong in --gate/ },
    { text: 'ttfp_ms.p95 <= 100', message: /latencies belong in --gate/ },
    { text: 'corectness >= 0.7', message: /did you mean correctness/ },
    { text: 'tone >= 1', message: /unknown figure "tone"/ },
  ])('refuses $text', ({ text, message }) => {
    expect(() => parsePassRule([text])).toThrow(UsageError);
    expect(() => parsePassRule([text])).toThrow(message);
  });
});

describe('applyPassRule', () => {
  it("the default rule is the scores' pass, and never passes a failed request", () => {
    expect(applyPassRule(DEFAULT_PASS_RULE, subject())).toEqual({ pass: true, failed: [], checked: true });
    expect(applyPassRule(DEFAULT_PASS_RULE, subject({ scores: makeScores({ pass: false }) })).pass).toBe(false);
    expect(applyPassRule(DEFAULT_PASS_RULE, subject({ outcome: 'timeout' })).pass).toBe(false);
  });
  it('conditions replace the default rule unless it is named', () => {
    const failing = makeScores({ pass: false, citation_recall: 1, correctness: 0.8 });
    expect(applyPassRule(parsePassRule(['correctness >= 0.7']), subject({ scores: failing })).pass).toBe(true);
    expect(applyPassRule(parsePassRule(['default', 'correctness >= 0.7']), subject({ scores: failing }))).toEqual({
      pass: false,
      failed: ['the default rule'],
      checked: true,
    });
  });
  it('names the conditions that failed, with the value', () => {
    const rule = parsePassRule(['correctness >= 0.9', 'citation_recall > 0']);
    expect(applyPassRule(rule, subject())).toEqual({
      pass: false,
      failed: ['correctness >= 0.9: 0.8'],
      checked: true,
    });
  });
  it('an N/A figure leaves its condition out; a judge error or a failed check fails it', () => {
    const rule = parsePassRule(['correctness >= 0.7', 'tone >= 1'], ['tone']);
    const na = makeScores({ correctness: null });
    expect(
      applyPassRule(
        rule,
        subject({ scores: na, checks: { tone: { score: null, reason: 'not applicable', error: null } } }),
      ).pass,
    ).toBe(true);
    const judge = {
      model: 'm',
      prompt_version: 'v1',
      verdicts: {
        correctness: {
          status: 'judge_error' as const,
          score: null,
          reason: null,
          error: 'HTTP 500',
          asks: [null],
          cached: 0,
        },
      },
    };
    expect(applyPassRule(rule, subject({ scores: na, judge })).failed).toEqual(['correctness >= 0.7: judge error']);
    const threw = { tone: { score: null, reason: null, error: 'threw: boom' } };
    expect(applyPassRule(rule, subject({ checks: threw })).failed).toEqual([
      'tone >= 1: the check failed (threw: boom)',
    ]);
    expect(
      applyPassRule(rule, subject({ checks: { tone: { score: 0, reason: 'rude', error: null } } })).failed,
    ).toEqual(['tone >= 1: 0']);
  });
  it('checked: the default rule when the question expects something, else a condition that applied', () => {
    const nothing = makeScores({ checked: false, correctness: null });
    expect(applyPassRule(DEFAULT_PASS_RULE, subject({ scores: nothing }))).toEqual({
      pass: true,
      failed: [],
      checked: false,
    });
    const rule = parsePassRule(['default', 'correctness >= 0.7']);
    expect(applyPassRule(rule, subject({ scores: nothing })).checked).toBe(false);
    expect(applyPassRule(rule, subject({ scores: { ...nothing, correctness: 0.9 } }))).toMatchObject({
      pass: true,
      checked: true,
    });
  });
  it('a request that is not ok never passes', () => {
    expect(applyPassRule(parsePassRule(['correctness >= 0']), subject({ outcome: 'truncated' })).pass).toBe(false);
  });
});
