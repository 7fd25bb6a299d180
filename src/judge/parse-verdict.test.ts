import { describe, expect, it } from 'vitest';
import { parseVerdict } from './parse-verdict.js';

describe('parseVerdict', () => {
  it.each([
    {
      name: 'bare JSON (structured output)',
      reply: '{"score": 0.75, "reason": "covers most facts"}',
      want: { score: 0.75, reason: 'covers most facts' },
    },
    {
      name: 'a fenced block amid prose (Ollama without structured output)',
      reply: 'Sure! Here is my assessment.\n\n```json\n{\n  "score": 1,\n  "reason": "agrees"\n}\n```\nLet me know.',
      want: { score: 1, reason: 'agrees' },
    },
    {
      name: 'an unlabelled fence',
      reply: '```\n{"score": 0.2, "reason": "wrong date"}\n```',
      want: { score: 0.2, reason: 'wrong date' },
    },
    {
      name: 'an object inside prose',
      reply: 'My verdict is {"score": 0.5, "reason": "half of it {roughly}"} as asked.',
      want: { score: 0.5, reason: 'half of it {roughly}' },
    },
    {
      name: 'a think block first',
      reply: '<think>The reference says {"score": 0}...</think>\n{"score": 0.9, "reason": "fine"}',
      want: { score: 0.9, reason: 'fine' },
    },
    { name: 'a numeric string', reply: '{"score": "0.6", "reason": "ok"}', want: { score: 0.6, reason: 'ok' } },
    { name: 'no reason', reply: '{"score": 0}', want: { score: 0, reason: null } },
    {
      name: 'an earlier non-verdict object is skipped',
      reply: 'Input was {"question": "x"}. Verdict: {"score": 0.3, "reason": "r"}',
      want: { score: 0.3, reason: 'r' },
    },
  ])('reads $name', ({ reply, want }) => expect(parseVerdict(reply, 'score')).toEqual(want));

  it.each([
    { reply: '{"pass": true, "reason": "mentions the portal"}', want: { score: 1, reason: 'mentions the portal' } },
    { reply: '{"pass": "fail", "reason": "no"}', want: { score: 0, reason: 'no' } },
    { reply: '{"verdict": "PASS"}', want: { score: 1, reason: null } },
    { reply: '{"score": 0, "reason": "x"}', want: { score: 0, reason: 'x' } },
  ])('reads a pass: $reply', ({ reply, want }) => expect(parseVerdict(reply, 'pass')).toEqual(want));

  it.each([
    { reply: '', error: /replied with nothing/ },
    { reply: 'I think it is mostly right.', error: /no verdict in the judge's reply/ },
    { reply: '{"score": 8, "reason": "out of 10"}', error: /outside 0–1/ },
    { reply: '{"score": "high"}', error: /no verdict/ },
    { reply: '```json\n{"score": 0.5,\n```', error: /no verdict/ },
  ])('refuses $reply', ({ reply, error }) => {
    const parsed = parseVerdict(reply, 'score');
    expect('error' in parsed && parsed.error).toMatch(error);
  });
});
