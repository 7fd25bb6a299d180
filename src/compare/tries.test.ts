import { describe, expect, it } from 'vitest';
import { OUTCOMES } from '../records/record.js';
import { column, markOf, Tries } from './tries.js';

const columns = (t: Tries | null) => ({
  outcomes: column(t, (x, i) => x.outcome(i)),
  passes: column(t, (x, i) => x.passed(i)),
  human: column(t, (x, i) => x.human(i)),
  conversation: column(t, (x, i) => x.conversation(i)),
});

describe('Tries', () => {
  it('gives back every outcome, pass and verdict it packed, before and after sealing', () => {
    const tries = new Tries(0, markOf(OUTCOMES[0]!, true, null));
    OUTCOMES.forEach((o, i) => tries.push(i + 1, markOf(o, i % 2 === 0, i % 3 === 0 ? null : i % 3 === 1)));
    const expected = {
      outcomes: [OUTCOMES[0], ...OUTCOMES],
      passes: [true, ...OUTCOMES.map((_, i) => i % 2 === 0)],
      human: [null, ...OUTCOMES.map((_, i) => (i % 3 === 0 ? null : i % 3 === 1))],
      conversation: new Array(OUTCOMES.length + 1).fill(null),
    };
    expect(columns(tries)).toEqual(expected);
    tries.seal();
    expect(columns(tries)).toEqual(expected);
  });

  it('finds a repeat, replaces its try and keeps its conversation pass', () => {
    const tries = new Tries(0, markOf('ok', true, null));
    tries.push(2, markOf('ok', true, true));
    tries.push(5, markOf('timeout', false, null));
    expect([0, 2, 5, 3].map((r) => tries.indexOfRepeat(r))).toEqual([0, 1, 2, -1]);
    tries.setConversation(1, false);
    tries.replace(1, markOf('http_error', false, false));
    expect(columns(tries)).toEqual({
      outcomes: ['ok', 'http_error', 'timeout'],
      passes: [true, false, false],
      human: [null, false, null],
      conversation: [null, false, null],
    });
  });

  it('keeps a question asked once without arrays', () => {
    const tries = new Tries(7, markOf('rate_limited', false, true));
    tries.setConversation(0, true);
    expect(tries.indexOfRepeat(7)).toBe(0);
    tries.seal();
    expect(columns(tries)).toEqual({
      outcomes: ['rate_limited'],
      passes: [false],
      human: [true],
      conversation: [true],
    });
    expect(columns(null)).toEqual({ outcomes: [], passes: [], human: [], conversation: [] });
  });
});
