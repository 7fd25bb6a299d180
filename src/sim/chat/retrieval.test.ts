import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { loadCorpus } from '../corpus/index.js';
import { ChatConfigSchema } from './config.js';
import { createRetriever, retrieve } from './retrieval.js';

// The shipped corpus and sample questions: the relevance threshold is tuned on them.
const corpus = await loadCorpus();
// A conversation's later turns are searched with their history (the engine's sessions): here, only questions on their own.
const rows = (
  parse(readFileSync(new URL('../../../datasets/sample.csv', import.meta.url)), { columns: true }) as Array<
    Record<string, string>
  >
).filter((r) => (r.turn ?? '') === '' || r.turn === '1');
const config = ChatConfigSchema.parse({});

describe('retrieval over the shipped corpus', () => {
  it('loads by default from datasets/corpus.json', () => {
    expect(corpus.documents.length).toBeGreaterThanOrEqual(60);
  });
  it('every answerable sample question passes the relevance threshold; every no-answer one falls below it', () => {
    const answerable = rows.filter((r) => r.expect_no_answer !== 'true');
    const noAnswer = rows.filter((r) => r.expect_no_answer === 'true');
    expect(noAnswer.length).toBeGreaterThan(0);
    const coverage = (r: Record<string, string>) => retrieve(corpus, r.question!, null, config);
    for (const r of answerable)
      expect({ id: r.id, relevant: coverage(r).relevant }).toEqual({ id: r.id, relevant: true });
    for (const r of noAnswer)
      expect({ id: r.id, relevant: coverage(r).relevant }).toEqual({ id: r.id, relevant: false });
  });
  it.each([
    'What is the capital of France?', // "capital" matches a finance document: half the words covered
    'What is the speed of light?',
    'Who won the 1998 football world cup?',
    'What is the recipe for lasagna?',
  ])('a question the corpus does not cover is not relevant, whatever its coverage: %s', (question) => {
    const r = retrieve(corpus, question, null, config);
    expect(r.relevant).toBe(false);
    expect(r.ranked).toEqual([]);
  });
  it('the score threshold sits between the uncovered and the covered questions, with room on both sides', () => {
    const top = (q: string) => retrieve(corpus, q, null, config).hits[0]?.score ?? 0;
    const answerable = rows.filter((r) => r.expect_no_answer !== 'true').map((r) => top(r.question!));
    const uncovered = [
      ...rows.filter((r) => r.expect_no_answer === 'true').map((r) => r.question!),
      'What is the capital of France?',
    ].map(top);
    expect(Math.min(...answerable)).toBeGreaterThan(2 * config.min_score);
    expect(Math.max(...uncovered)).toBeLessThan(config.min_score);
  });
  it('ranks an expected document first for at least 90% of the answerable questions (unfiltered)', () => {
    const answerable = rows.filter((r) => r.expect_no_answer !== 'true' && r.expected_documents);
    const first = answerable.filter((r) =>
      r
        .expected_documents!.split('|')
        .includes(retrieve(corpus, r.question!, null, config).hits[0]?.doc.document_id ?? ''),
    );
    expect(first.length / answerable.length).toBeGreaterThanOrEqual(0.9);
  });
  it('the cached retriever returns the same result object for the same message and filters', () => {
    const cached = createRetriever(corpus, config);
    const q = rows[0]!.question!;
    expect(cached(q, null)).toBe(cached(q, null));
    expect(cached(q, { source_type: ['web'] })).not.toBe(cached(q, null));
  });
});
