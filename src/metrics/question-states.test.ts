import { describe, expect, it } from 'vitest';
import { createQuestionIndex } from './question-index.js';
import { createQuestionStates, unionOfQuestionStates, type QuestionStates } from './question-states.js';

const sorted = (clusters: ReadonlyMap<string, readonly number[]>) =>
  [...clusters]
    .map(([key, values]) => [key, [...values].sort((a, b) => a - b)] as const)
    .sort(([a], [b]) => (a < b ? -1 : 1));
const view = (s: QuestionStates) => ({
  repeated: s.repeated,
  clusters: sorted(s.clusters('hit')),
  passCounts: [...s.passCounts()].sort(([a], [b]) => (a < b ? -1 : 1)),
  unchecked: s.uncheckedQuestions(),
});

type Observed = [part: number, id: string, checked: boolean, passed: boolean, hit: number];

describe('question states', () => {
  it.each([
    { name: 'distinct questions, one part each', shared: false, again: false },
    { name: 'a question in two parts', shared: true, again: false },
    { name: 'a question asked again in its part', shared: false, again: true },
  ])('of parts together are those of one accumulator given every observation ($name)', ({ shared, again }) => {
    const ids = createQuestionIndex();
    const whole = createQuestionStates(ids);
    const parts = [createQuestionStates(ids), createQuestionStates(ids), createQuestionStates(ids)];
    const observations: Observed[] = [
      [0, 'q1', true, true, 1],
      [1, 'q2', false, false, 0],
      [2, 'q3', true, false, 0],
      [1, 'q4', false, true, 1],
      ...(shared ? [[2, 'q2', true, true, 1] satisfies Observed] : []),
      ...(again ? [[0, 'q1', false, false, 0] satisfies Observed] : []),
    ];
    for (const [part, id, checked, passed, hit] of observations) {
      const question = ids.id(id);
      for (const states of [whole, parts[part]!]) {
        states.add(question, checked, passed);
        states.addValue('hit', question, hit);
      }
    }
    expect(
      view(
        unionOfQuestionStates(
          () => parts,
          () => ids.size,
        ),
      ),
    ).toEqual(view(whole));
  });
});
