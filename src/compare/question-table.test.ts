import { describe, expect, it } from 'vitest';
import { createQuestionIndex } from '../metrics/question-index.js';
import { QuestionTable } from './question-table.js';

describe('QuestionTable', () => {
  it('reads as a map by id in first-seen order, each question a view of its row', () => {
    const ids = createQuestionIndex();
    ids.id('elsewhere'); // the pass's index holds other groups' questions too
    const table = new QuestionTable(ids, (row) => ({ row }));
    expect([table.add('q2', 'two?'), table.add('q1', 'one?'), table.add('q2', 'two again?')]).toEqual([0, 1, 0]);
    expect(table.size).toBe(2);
    expect(table.texts).toEqual(['two?', 'one?']);
    expect([...table.keys()]).toEqual(['q2', 'q1']);
    expect([...table]).toEqual([
      ['q2', { row: 0 }],
      ['q1', { row: 1 }],
    ]);
    expect([...table.values()]).toEqual([{ row: 0 }, { row: 1 }]);
    expect(new Map(table)).toEqual(
      new Map([
        ['q2', { row: 0 }],
        ['q1', { row: 1 }],
      ]),
    );
    const seen: string[] = [];
    table.forEach((view, id) => seen.push(`${id}:${view.row}`));
    expect(seen).toEqual(['q2:0', 'q1:1']);
    expect([table.get('q1'), table.has('q1'), table.has('elsewhere'), table.get('nowhere')]).toEqual([
      { row: 1 },
      true,
      false,
      undefined,
    ]);
    // A question looked up is not added to the pass's index.
    expect(ids.size).toBe(3);
  });

  it('starts a row at its columns’ empty values', () => {
    const table = new QuestionTable(createQuestionIndex(), (row) => row);
    const row = table.add('q', 'text');
    expect(
      (['next', 'mark', 'checked', 'judgeAsks', 'judgeFailed', 'firstRepeat', 'firstAnswer'] as const).map((c) =>
        table.columns.get(c, row),
      ),
    ).toEqual([0, 0, 0, 0, 0, -1, NaN]);
  });
});
