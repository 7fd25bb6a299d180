import { describe, expect, it } from 'vitest';
import { answerKey, humanVerdicts, parseReviews, recordVerdict, type Review } from './review.js';

const review = (over: Partial<Review> = {}): Review => ({
  review_version: 1,
  key: 'q1|fast|stream|0',
  model_index: null,
  question_id: 'q1',
  set: 'fast',
  mode: 'stream',
  repeat: 0,
  verdict: 'pass',
  note: '',
  reviewer: 'ann',
  at: '2026-01-01T00:00:00.000Z',
  ...over,
});
const line = (r: Review) => `${JSON.stringify(r)}\n`;

describe('parseReviews', () => {
  it('reads one review a line, skipping blank lines and a torn last line', () => {
    const text = `${line(review())}\n${line(review({ verdict: 'fail' }))}{"review_version":1,"key":"q`;
    const parsed = parseReviews(text, 'r.jsonl');
    expect(parsed.reviews.map((r) => r.verdict)).toEqual(['pass', 'fail']);
    expect(parsed.problems).toEqual([]);
    expect(parsed.torn).toBe(1);
  });
  it('reads a file written before the verdicts were named pass/fail: good is pass, bad is fail (docs/glossary.md)', () => {
    const old = `${JSON.stringify({ ...review(), verdict: 'good' })}\n${JSON.stringify({ ...review(), verdict: 'bad' })}\n`;
    const parsed = parseReviews(old, 'r.jsonl');
    expect(parsed.problems).toEqual([]);
    expect(parsed.reviews.map((r) => r.verdict)).toEqual(['pass', 'fail']);
    expect(humanVerdicts(parsed.reviews).get('q1|fast|stream|0')).toMatchObject({ human_verdict: 'fail', pass: false });
  });
  it('names the file, line and field of every bad line', () => {
    const text = `not json\n${JSON.stringify({ ...review(), verdict: 'meh' })}\n${line(review())}`;
    const { problems } = parseReviews(text, 'r.jsonl');
    expect(problems[0]).toMatch(/^r\.jsonl:1: not JSON/);
    expect(problems[1]).toMatch(/^r\.jsonl:2: verdict: /);
    expect(problems).toHaveLength(2);
  });
});

describe('humanVerdicts', () => {
  it('keeps the last review of each answer, with its history', () => {
    const verdicts = humanVerdicts([
      review(),
      review({ verdict: 'fail', note: 'wrong date' }),
      review({ key: 'q2|fast|stream|0', question_id: 'q2' }),
    ]);
    const q1 = verdicts.get('q1|fast|stream|0')!;
    expect(q1.human_verdict).toBe('fail');
    expect(q1.pass).toBe(false);
    expect(q1.history.map((r) => r.verdict)).toEqual(['pass', 'fail']);
    expect(verdicts.get('q2|fast|stream|0')?.pass).toBe(true);
  });
  it('tells the answers of a multi-model record apart', () => {
    const verdicts = humanVerdicts([review({ model_index: 0 }), review({ model_index: 1, verdict: 'fail' })]);
    expect(verdicts.get(answerKey('q1|fast|stream|0', 0))?.pass).toBe(true);
    expect(verdicts.get(answerKey('q1|fast|stream|0', 1))?.pass).toBe(false);
  });
});

describe('recordVerdict', () => {
  const key = 'q1|duo|stream|0';
  it('a multi-model record is good only when every model was reviewed good', () => {
    const good = humanVerdicts([review({ key, model_index: 0 }), review({ key, model_index: 1 })]);
    const mixed = humanVerdicts([review({ key, model_index: 0 }), review({ key, model_index: 1, verdict: 'fail' })]);
    const partly = humanVerdicts([review({ key, model_index: 0 })]);
    expect(recordVerdict(good, key, [0, 1])).toBe(true);
    expect(recordVerdict(mixed, key, [0, 1])).toBe(false);
    expect(recordVerdict(partly, key, [0, 1])).toBeUndefined();
  });
  it('a single answer counts by its own review', () => {
    expect(recordVerdict(humanVerdicts([review({ key, verdict: 'fail' })]), key, [])).toBe(false);
    expect(recordVerdict(humanVerdicts([]), key, [])).toBeUndefined();
  });
});
