import { describe, expect, it } from 'vitest';
import {
  compareCandidates,
  createCandidateTally,
  MAX_CANDIDATES,
  proposedIds,
  type Candidate,
} from './expectation-candidates.js';

type Source = Parameters<ReturnType<typeof createCandidateTally>['add']>[0];

const doc = (id: string) => ({ document_id: id, title: `T ${id}`, link: `https://x/${id}`, blurb: '', highlights: [] });
const record = (set: string, cited: string[], top: string[], more: Partial<Source> = {}): Source => ({
  question_id: 'q1',
  question: 'Q?',
  set,
  expected_document_ids: [],
  cited_document_ids: cited,
  top_document_ids: top,
  top_documents: top.map(doc),
  ...more,
});

const candidate = (id: string, more: Partial<Candidate>): Candidate => ({
  document_id: id,
  title: null,
  link: null,
  sets_cited: 0,
  cited: 0,
  top: 0,
  best_rank: null,
  ...more,
});

describe('expectation candidates', () => {
  it('ranks by sets that cited, then answers that cited, then answers given it, then best rank', () => {
    const tally = createCandidateTally();
    tally.add(record('fast', ['a'], ['b', 'a', 'c']));
    tally.add(record('fast', ['a', 'c'], ['c', 'a']));
    tally.add(record('accurate', ['c', 'c'], ['c', 'b']));
    const [q] = tally.result();
    expect(q!.answers).toBe(3);
    expect(q!.candidates.map((c) => [c.document_id, c.sets_cited, c.cited, c.top, c.best_rank])).toEqual([
      ['c', 2, 2, 3, 1],
      ['a', 1, 2, 2, 2],
      ['b', 0, 0, 2, 1],
    ]);
    expect(q!.candidates[0]).toMatchObject({ title: 'T c', link: 'https://x/c' });
  });

  it('keeps questions in the order first read, their expectations as the run had them, and at most MAX_CANDIDATES', () => {
    const tally = createCandidateTally();
    const many = Array.from({ length: MAX_CANDIDATES + 5 }, (_, i) => `d${String(i).padStart(2, '0')}`);
    tally.add(record('s', [], many, { question_id: 'q2', expected_document_ids: ['x'] }));
    tally.add(record('s', [], [], { question_id: 'q1' }));
    const result = tally.result();
    expect(result.map((q) => q.question_id)).toEqual(['q2', 'q1']);
    expect(result[0]!.expected).toEqual(['x']);
    expect(result[0]!.candidates).toHaveLength(MAX_CANDIDATES);
    expect(result[0]!.candidates[0]!.document_id).toBe('d00');
    expect(result[1]!.candidates).toEqual([]);
  });

  it('a cited document the answer was not given has no title or link', () => {
    const tally = createCandidateTally();
    tally.add(record('s', ['ghost'], []));
    expect(tally.result()[0]!.candidates[0]).toMatchObject({ document_id: 'ghost', title: null, link: null, top: 0 });
  });

  it.each([
    { top: 3, minSets: 1, want: ['a', 'b'] },
    { top: 1, minSets: 1, want: ['a'] },
    { top: 3, minSets: 2, want: ['a'] },
    { top: 3, minSets: 3, want: [] },
  ])('proposes the best $top cited by at least $minSets sets', ({ top, minSets, want }) => {
    const ranked = [
      candidate('a', { sets_cited: 2 }),
      candidate('b', { sets_cited: 1 }),
      candidate('c', { sets_cited: 0, top: 4 }),
    ].sort(compareCandidates);
    expect(proposedIds(ranked, { top, minSets })).toEqual(want);
  });
});
