import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeModel, makeRecord } from '../../metrics/test-records.js';
import { createRunCollector } from '../../compare/run-data.js';
import { answerReader } from './answer-at.js';
import { readRecordEntries } from './read-records.js';

const dir = mkdtempSync(join(tmpdir(), 'chatbench-answer-at-'));

describe('answerReader', () => {
  it("reads back a record's answer, or a model's, from its line's offset (CRLF, a line past a chunk)", async () => {
    const long = 'é'.repeat(70_000);
    const records = [
      makeRecord({ question_id: 'q1', answer: 'first' }),
      makeRecord({ question_id: 'q2', answer: long }),
      makeRecord({
        question_id: 'q3',
        answer: null,
        models: [makeModel(0, { answer: 'zero' }), makeModel(1, { answer: 'one' })],
      }),
    ];
    const path = join(dir, 'results.jsonl');
    writeFileSync(path, records.map((r) => `${JSON.stringify(r)}\r\n`).join(''));
    const read = answerReader(path);
    const offsets: number[] = [];
    for await (const entry of readRecordEntries(path)) offsets.push(entry.place.offset);
    expect(read(offsets[0]!, null)).toBe('first');
    expect(read(offsets[1]!, null)).toBe(long);
    expect(read(offsets[2]!, null)).toBeNull();
    expect(read(offsets[2]!, 1)).toBe('one');
    expect(read(offsets[2]!, 7)).toBeNull();
  });

  it("gives the run's data the same first answers as the text it kept before", async () => {
    const records = [
      makeRecord({ question_id: 'q1', repeat: 1, answer: 'later' }),
      makeRecord({ question_id: 'q1', repeat: 0, answer: 'x'.repeat(900) }),
      makeRecord({ question_id: 'q2', answer: null }),
    ];
    const path = join(dir, 'two.jsonl');
    writeFileSync(path, records.map((r) => `${JSON.stringify(r)}\n`).join(''));
    const kept = createRunCollector();
    const placed = createRunCollector({ answerAt: answerReader(path) });
    for await (const entry of readRecordEntries(path)) {
      kept.add(entry.record);
      placed.add(entry.record, entry.place.offset);
    }
    const answers = (run: ReturnType<typeof kept.finish>) =>
      [...run.groups[0]!.questions].map(([id, q]) => [id, q.answer] as const);
    expect(answers(placed.finish('placed'))).toEqual(answers(kept.finish('kept')));
    expect(answers(placed.finish('placed'))[0]![1]).toHaveLength(400);
  });
});
