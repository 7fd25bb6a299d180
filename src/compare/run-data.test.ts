import { describe, expect, it } from 'vitest';
import { makeRecord, makeScores } from '../../test/fixtures/reports/fixture.js';
import type { RequestRecord } from '../records/record.js';
import { scoreMean } from '../metrics/question-value.js';
import { createRunCollector, groupKeyString, type QuestionData } from './run-data.js';
import { createQuestionIndex } from '../metrics/question-index.js';

/** Scores whose sum depends on the order of addition: summed forwards 1.7, backwards 1.7000000000000002. */
const F1 = [0.1, 0.2, 0.3, 0.4, 0.7];

function records(): RequestRecord[] {
  return ['q1', 'q2', 'q3'].flatMap((question_id) =>
    F1.map((f1, repeat) =>
      makeRecord({
        question_id,
        set: 's',
        repeat,
        answer: `answer ${question_id} r${repeat}`,
        outcome: repeat === 3 && question_id === 'q2' ? 'http_error' : 'ok',
        scores: makeScores({ citation_f1: f1, pass: f1 > 0.15 }),
      }),
    ),
  );
}

/** What a comparison reads of each question, as plain data: its means by name (the columns they are kept in aside). */
const plain = (questions: ReadonlyMap<string, QuestionData>) =>
  new Map(
    [...questions].map(([id, q]) => [
      id,
      {
        question: q.question,
        outcomes: q.outcomes,
        passes: q.passes,
        human: q.human,
        checked: q.checked,
        judge: q.judge,
        conversation_passes: q.conversation_passes,
        answer: q.answer,
        cited_document_ids: q.cited_document_ids,
        scores: Object.fromEntries([...q.scores.slots.keys()].map((name) => [name, scoreMean(q.scores, name)])),
      },
    ]),
  );

const questionsOf = (list: readonly RequestRecord[]) => {
  const collector = createRunCollector();
  for (const record of list) collector.add(record);
  return collector.finish('run').groups[0]!.questions;
};

describe('createRunCollector per question', () => {
  it('gives the same tries, means (to the bit) and first answer whatever order the repeats come in', () => {
    const inOrder = questionsOf(records());
    const reversed = questionsOf([...records()].reverse());
    const interleaved = questionsOf(records().sort((a, b) => (a.repeat % 2) - (b.repeat % 2) || b.repeat - a.repeat));
    expect(plain(reversed)).toEqual(plain(inOrder));
    expect(plain(interleaved)).toEqual(plain(inOrder));
    const q1 = inOrder.get('q1')!;
    expect(scoreMean(q1.scores, 'citation_f1')).toBe(F1.reduce((sum, v) => sum + v, 0) / F1.length);
    expect(q1.passes).toEqual([false, true, true, true, true]);
    expect(scoreMean(q1.scores, 'citation_f1')).not.toBe([...F1].reverse().reduce((sum, v) => sum + v, 0) / F1.length);
    expect(q1.answer).toBe('answer q1 r0');
    // A failed try counts in outcomes and passes, never in a score mean.
    const q2 = inOrder.get('q2')!;
    expect(q2.outcomes).toEqual(['ok', 'ok', 'ok', 'http_error', 'ok']);
    expect(scoreMean(q2.scores, 'citation_f1')).toBe((0.1 + 0.2 + 0.3 + 0.7) / 4);
  });

  it('folds in a question whose earlier repeats never came (an interrupted run), in repeat order', () => {
    const partial = records().filter((r) => r.repeat >= 2 && r.question_id === 'q1');
    const q1 = questionsOf(partial.reverse()).get('q1')!;
    expect(q1.outcomes).toHaveLength(3);
    expect(scoreMean(q1.scores, 'citation_f1')).toBe((0.3 + 0.4 + 0.7) / 3);
    expect(q1.answer).toBe('answer q1 r2');
  });
});

describe('createRunCollector: what it keeps per question', () => {
  it('gives a question no mean of a figure none of its tries had (N/A, never 0), and others theirs', () => {
    const failed = records().map((r) => (r.question_id === 'q3' ? { ...r, outcome: 'timeout' as const } : r));
    const questions = questionsOf(failed);
    expect(scoreMean(questions.get('q3')!.scores, 'citation_f1')).toBeNull();
    expect(scoreMean(questions.get('q1')!.scores, 'no_such_figure')).toBeNull();
    expect(scoreMean(questions.get('q1')!.scores, 'citation_f1')).not.toBeNull();
  });

  it('gives a question asked once its values as its means, and one asked twice the mean of both', () => {
    const once = questionsOf(records().filter((r) => r.repeat === 4)).get('q1')!;
    expect(scoreMean(once.scores, 'citation_f1')).toBe(0.7);
    const twice = questionsOf(records().filter((r) => r.repeat === 4 || r.repeat === 2)).get('q1')!;
    expect(scoreMean(twice.scores, 'citation_f1')).toBe((0.3 + 0.7) / 2);
  });

  it('takes the summary and repeat figures from the caller’s summarizer when given one, and collects the same questions', () => {
    const own = createRunCollector();
    const given = createRunCollector({
      summarizer: {
        finish: () => summary,
        repeats: () => ownData.repeats,
        latency: (key, figure) =>
          ownData.groups.find((g) => groupKeyString(g) === groupKeyString(key))!.latency[figure],
      },
    });
    for (const record of records()) {
      own.add(record);
      given.add(record);
    }
    const ownData = own.finish('run');
    const summary = { ...ownData.summary, banner: ['the caller’s'] };
    const givenData = given.finish('run');
    expect(givenData.summary).toBe(summary);
    expect(givenData.repeats).toBe(ownData.repeats);
    const plainGroups = (data: typeof ownData) => data.groups.map((g) => ({ ...g, questions: plain(g.questions) }));
    expect(plainGroups(givenData)).toEqual(plainGroups(ownData));
    // The latencies are the summarizer's own values, not a copy.
    expect(givenData.groups[0]!.latency.total_ms).toBe(ownData.groups[0]!.latency.total_ms);
  });

  it('finds its questions in the pass’s index without adding to it, and reads a first answer back by its line’s offset', () => {
    const questionIds = createQuestionIndex();
    questionIds.id('q0'); // another group's
    const lines = new Map<number, string>();
    const collector = createRunCollector({
      questionIds,
      answerAt: (offset, modelIndex) => (modelIndex === null ? (lines.get(offset) ?? null) : null),
    });
    records().forEach((record, i) => {
      lines.set(1000 * i, `read back ${record.answer}`);
      collector.add(i === 0 ? { ...record, cited_document_ids: [] } : record, 1000 * i);
    });
    const questions = collector.finish('run').groups[0]!.questions;
    expect([...questions.keys()]).toEqual(['q1', 'q2', 'q3']);
    expect(questions.get('q2')!.answer).toBe('read back answer q2 r0');
    expect([questions.get('q1')!.cited_document_ids, questions.get('q3')!.cited_document_ids]).toEqual([[], ['doc-a']]);
    expect([questions.has('q0'), questions.get('nowhere'), questionIds.size]).toEqual([false, undefined, 4]);
    // The same figures as a collector that keeps the answers' text.
    const own = plain(questionsOf(records()));
    for (const q of own.values()) q.answer = `read back ${q.answer}`;
    expect(plain(questions)).toEqual(
      new Map([...own].map(([id, q]) => [id, id === 'q1' ? { ...q, cited_document_ids: [] } : q])),
    );
  });
});
