import { describe, expect, it } from 'vitest';
import { OUTCOMES, type Outcome } from '../records/record.js';
import { createRepeatsAccumulator, questionRepeatFigures } from './repeats.js';
import { makeModel, makeRecord, makeScores } from './test-records.js';

describe('questionRepeatFigures', () => {
  it.each([
    {
      name: 'always passes',
      outcomes: ['ok', 'ok', 'ok'],
      passes: [true, true, true],
      want: { pass_at_n: true, pass_all_n: true, flaky: false },
    },
    {
      name: 'passes once',
      outcomes: ['ok', 'ok', 'ok'],
      passes: [false, true, false],
      want: { pass_at_n: true, pass_all_n: false, flaky: true },
    },
    {
      name: 'never passes, steadily',
      outcomes: ['ok', 'ok'],
      passes: [false, false],
      want: { pass_at_n: false, pass_all_n: false, flaky: false },
    },
    {
      name: 'outcome differs, never passes',
      outcomes: ['timeout', 'rate_limited'],
      passes: [false, false],
      want: { pass_at_n: false, pass_all_n: false, flaky: true },
    },
    { name: 'one try', outcomes: ['ok'], passes: [true], want: { pass_at_n: true, pass_all_n: true, flaky: false } },
    { name: 'no tries', outcomes: [], passes: [], want: { pass_at_n: false, pass_all_n: false, flaky: false } },
  ])('$name', ({ outcomes, passes, want }) => {
    expect(questionRepeatFigures({ outcomes: outcomes as Outcome[], passes })).toEqual(want);
  });
});

describe('createRepeatsAccumulator', () => {
  const rec = (q: string, repeat: number, pass: boolean, outcome: Outcome = 'ok', set = 'a') =>
    makeRecord({ question_id: q, repeat, set, outcome, scores: outcome === 'ok' ? makeScores({ pass }) : null });

  it('keeps every try of a question asked many times, in repeat order, the later of a repeat seen twice', () => {
    // 37 tries (the columns grow past their first sizes), every outcome, arriving backwards.
    const outcomes = OUTCOMES.filter((o) => o !== 'ok');
    const tries = Array.from({ length: 37 }, (_, repeat) => ({
      repeat,
      outcome: repeat % 3 === 0 ? outcomes[repeat % outcomes.length]! : ('ok' as Outcome),
      pass: repeat % 3 !== 0 && repeat % 2 === 0,
    }));
    const acc = createRepeatsAccumulator();
    acc.add(rec('q', 5, true, 'timeout')); // repeat 5 seen twice: the later (below) counts
    for (const t of [...tries].reverse()) acc.add(rec('q', t.repeat, t.pass, t.outcome));
    const [group] = acc.finish();
    expect(group!.repeats).toBe(37);
    expect(group!.flaky).toEqual([
      {
        question_id: 'q',
        outcomes: tries.map((t) => t.outcome),
        passes: tries.map((t) => t.outcome === 'ok' && t.pass),
      },
    ]);
  });

  it('keeps repeats past the packed range with their tries, before, among and after small ones', () => {
    // 2 ** 24 and beyond do not pack (repeat × 64 + mark): the tries move to a repeat and a mark each.
    const outcomes = OUTCOMES.filter((o) => o !== 'ok');
    const repeats = [3, 1, 2 ** 24, 0, 2 ** 40, 7, 2, 2 ** 24 - 1, 11, 5, 4];
    const tryOf = (repeat: number, i: number) => ({
      repeat,
      outcome: i % 2 === 0 ? outcomes[i % outcomes.length]! : ('ok' as Outcome),
      pass: i % 3 === 0,
    });
    const ordered = (list: readonly number[]) => list.map(tryOf).sort((a, b) => a.repeat - b.repeat);
    const expected = (list: readonly number[]) => ({
      outcomes: ordered(list).map((t) => t.outcome),
      passes: ordered(list).map((t) => t.outcome === 'ok' && t.pass),
    });
    // The large repeat first (the question's first try), in the middle (the packed tries widen), and
    // small ones only, the packed arrays grown past their first size.
    const lists = [repeats, [2 ** 30, ...repeats.filter((r) => r < 2 ** 24)], Array.from({ length: 9 }, (_, r) => r)];
    for (const list of lists) {
      const acc = createRepeatsAccumulator();
      list.forEach((repeat, i) => {
        const t = tryOf(repeat, i);
        acc.add(rec('q', t.repeat, t.pass, t.outcome));
      });
      const [group] = acc.finish();
      expect(group!.repeats).toBe(list.length);
      const flaky = group!.flaky[0] ?? { outcomes: [], passes: [] };
      expect({ outcomes: flaky.outcomes, passes: flaky.passes }).toEqual(expected(list));
    }
  });

  it('rates per group and the flaky list, whatever the record order', () => {
    const records = [
      rec('q1', 0, true),
      rec('q1', 1, true),
      rec('q1', 2, true), // pass^3
      rec('q2', 0, true),
      rec('q2', 1, false),
      rec('q2', 2, true), // pass@3 only, flaky
      rec('q3', 0, false),
      rec('q3', 1, false, 'timeout'),
      rec('q3', 2, false), // never, flaky by outcome
      rec('q4', 0, false),
      rec('q4', 1, false),
      rec('q4', 2, false), // never, steady
      rec('q1', 0, true, 'ok', 'b'),
    ];
    for (const order of [records, [...records].reverse()]) {
      const acc = createRepeatsAccumulator();
      for (const r of order) acc.add(r);
      const groups = acc.finish();
      const a = groups.find((g) => g.set === 'a')!;
      expect(a).toMatchObject({ questions: 4, repeats: 3, model_index: null });
      expect(a.pass_at_n!.mean).toBe(0.5);
      expect(a.pass_all_n!.mean).toBe(0.25);
      expect(a.flaky_rate!.mean).toBe(0.5);
      expect(a.flaky.map((f) => f.question_id).sort()).toEqual(['q2', 'q3']);
      expect(a.flaky.find((f) => f.question_id === 'q3')).toEqual({
        question_id: 'q3',
        outcomes: ['ok', 'timeout', 'ok'],
        passes: [false, false, false],
      });
      expect(groups.find((g) => g.set === 'b')).toMatchObject({ questions: 1, repeats: 1, flaky: [] });
    }
  });

  it('a multi-model record counts per model too', () => {
    const acc = createRepeatsAccumulator();
    for (const repeat of [0, 1]) {
      acc.add(
        makeRecord({
          repeat,
          scores: null,
          models: [makeModel(0), makeModel(1, { scores: makeScores({ pass: repeat === 0 }) })],
        }),
      );
    }
    const groups = acc.finish();
    expect(groups.map((g) => [g.model_index, g.pass_all_n!.mean, g.flaky.length])).toEqual([
      [null, 0, 1],
      [0, 1, 0],
      [1, 0, 1],
    ]);
  });
});
