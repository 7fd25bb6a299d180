import { describe, expect, it } from 'vitest';
import { OUTCOMES } from '../records/record.js';
import { ScoresSchema } from '../records/scores.js';
import { citedDocumentIds, rankCitations, rankedUnique } from '../records/citations.js';
import { citationScores } from './citations.js';
import { rankingScores } from './ranking.js';
import { computeScores, ExpectationsSchema, type Expectations, type ScoredFigures } from './score.js';

const expectations = (over: Partial<Expectations> = {}): Expectations => ({
  expected_document_ids: [],
  must_contain: [],
  must_not_contain: [],
  expect_no_answer: false,
  expected_tools: [],
  ...over,
});

/** Figures of an answer citing `docs` in order (citation numbers 1..n), each with a linked marker. */
const answerCiting = (docs: string[], top: string[] = docs, over: Partial<ScoredFigures> = {}): ScoredFigures => {
  const citations = docs.map((document_id, i) => ({ citation_number: i + 1, document_id }));
  return {
    outcome: 'ok',
    answer: `Answer ${docs.map((_, i) => `[[${i + 1}]](https://d.example/${i + 1})`).join(' ')}`,
    citations,
    cited_document_ids: citedDocumentIds(citations),
    top_document_ids: top,
    markers_without_citation: [],
    ...over,
  };
};

describe('computeScores on the docs/reference/metrics.md vectors', () => {
  it('q1', () => {
    const s = computeScores(answerCiting(['B', 'A', 'D', 'C']), expectations({ expected_document_ids: ['A', 'C'] }));
    expect(s.citation_precision).toBe(0.5);
    expect(s.citation_recall).toBe(1);
    expect(s.citation_f1).toBeCloseTo(0.6667, 4);
    expect(s.ndcg_at_5).toBeCloseTo(0.6509, 4);
    expect(s.pass).toBe(true);
  });

  it('q2: nothing cited → precision N/A, recall and F1 0, fails (recall 0 with documents expected)', () => {
    const s = computeScores(answerCiting([], ['X']), expectations({ expected_document_ids: ['X'] }));
    expect([s.citation_precision, s.citation_recall, s.citation_f1]).toEqual([null, 0, 0]);
    expect(s.reciprocal_rank).toBe(0);
    expect(s.retrieval_reciprocal_rank).toBe(1);
    expect(s.pass).toBe(false);
  });

  it('q3: nothing expected → every numeric score N/A; passes when the rest is fine', () => {
    const s = computeScores(answerCiting(['N']), expectations());
    expect([s.citation_precision, s.citation_recall, s.citation_f1, s.reciprocal_rank, s.retrieval_ndcg_at_10]).toEqual(
      [null, null, null, null, null],
    );
    expect(s.pass).toBe(true);
  });

  it('q4', () => {
    const s = computeScores(answerCiting(['P']), expectations({ expected_document_ids: ['P', 'Q', 'R'] }));
    expect(s.citation_f1).toBeCloseTo(0.5, 10);
    expect(s.ap_at_10).toBeCloseTo(1 / 3, 10);
  });
});

describe('computeScores', () => {
  it('scores retrieval over top_document_ids, trimmed and de-duplicated', () => {
    const figures = answerCiting(['A'], ['x', ' A', 'x', 'A', 'B']);
    const s = computeScores(figures, expectations({ expected_document_ids: ['A', 'B'] }));
    // R_top = [x, A, B]
    expect(s.retrieval_reciprocal_rank).toBe(0.5);
    expect(s.retrieval_recall_at_3).toBe(1);
    expect(s.retrieval_precision_at_1).toBe(0);
  });

  it('counts duplicates from the citations and keeps them once in the ranking', () => {
    const citations = [
      { citation_number: 2, document_id: 'B' },
      { citation_number: 1, document_id: 'A' },
      { citation_number: 3, document_id: 'A' },
    ];
    const figures = answerCiting([], ['A', 'B'], { citations, cited_document_ids: citedDocumentIds(citations) });
    const s = computeScores(figures, expectations({ expected_document_ids: ['B'] }));
    expect(s.duplicate_citations).toBe(1);
    expect(s.citation_precision).toBe(0.5);
    expect(s.reciprocal_rank).toBe(0.5);
  });

  it.each([
    { name: 'document not given', figures: answerCiting(['A', 'Z'], ['A']), invalid: 1 },
    {
      name: 'marker without citation',
      figures: answerCiting(['A'], ['A'], { markers_without_citation: [2] }),
      invalid: 1,
    },
    { name: 'both', figures: answerCiting(['Z'], ['A'], { markers_without_citation: [5, 6] }), invalid: 3 },
  ])('invalid citations: $name → $invalid, and the answer fails', ({ figures, invalid }) => {
    const s = computeScores(figures, expectations({ expected_document_ids: ['A'] }));
    expect(s.invalid_citations).toBe(invalid);
    expect(s.pass).toBe(false);
  });

  it('runs the answer checks on the citation-free answer', () => {
    const figures = answerCiting(['A'], ['A'], { answer: 'Use  DOCKER\ncompose [[1]](https://d.example/helm).' });
    const s = computeScores(
      figures,
      expectations({
        expected_document_ids: ['A'],
        must_contain: ['docker compose', 'helm'],
        must_not_contain: ['Docker'],
      }),
    );
    expect(s.missing_phrases).toEqual(['helm']);
    expect(s.forbidden_phrases).toEqual(['Docker']);
    expect(s.pass).toBe(false);
  });

  it.each([
    { cited: [] as string[], ok: true },
    { cited: ['A'], ok: false },
  ])('expect_no_answer with $cited cited → no_answer_ok $ok', ({ cited, ok }) => {
    const s = computeScores(answerCiting(cited, ['A']), expectations({ expect_no_answer: true }));
    expect(s.no_answer_ok).toBe(ok);
    expect(s.pass).toBe(ok);
  });

  it.each(OUTCOMES.filter((o) => o !== 'ok'))('a %s request scores nothing and does not pass', (outcome) => {
    const s = computeScores(
      answerCiting(['A', 'A'], [], { outcome, markers_without_citation: [3] }),
      expectations({ expected_document_ids: ['A'], must_contain: ['zzz'], expect_no_answer: true }),
    );
    const numeric = Object.entries(s).filter(([, v]) => typeof v === 'number' || v === null);
    for (const [key, value] of numeric) {
      if (key === 'duplicate_citations' || key === 'invalid_citations') expect(value).toBe(0);
      else if (key !== 'no_answer_ok') expect(value, key).toBeNull();
    }
    expect([s.missing_phrases, s.forbidden_phrases, s.no_answer_ok, s.pass]).toEqual([[], [], null, false]);
    expect(ScoresSchema.parse(s)).toEqual(s);
  });

  it('always produces exactly the keys of ScoresSchema', () => {
    const s = computeScores(answerCiting(['A']), expectations({ expected_document_ids: ['A'] }));
    expect(Object.keys(s).sort()).toEqual(Object.keys(ScoresSchema.shape).sort());
    expect(ScoresSchema.strict().parse(s)).toEqual(s);
  });
});

describe('ExpectationsSchema', () => {
  it('accepts expectations and rejects a missing field', () => {
    expect(ExpectationsSchema.parse(expectations({ must_contain: ['a'] })).must_contain).toEqual(['a']);
    expect(ExpectationsSchema.safeParse({ expected_document_ids: [] }).success).toBe(false);
  });
});

describe("computeScores: the record's key order", () => {
  it('writes the scores in the order records have always had (citation, ranking, retrieval_, answer, judged, tools, counts, checks, pass)', () => {
    const scores = computeScores(
      answerCiting(['a', 'b'], ['a', 'c']),
      expectations({ expected_document_ids: ['a'], reference_answer: 'Answer', expected_tools: ['search'] }),
    );
    const ranking = [
      'reciprocal_rank',
      ...[1, 3, 5, 10].flatMap((k) => ['hit', 'precision', 'recall', 'ap', 'ndcg'].map((p) => `${p}_at_${k}`)),
    ];
    expect(Object.keys(scores)).toEqual([
      'citation_precision',
      'citation_recall',
      'citation_f1',
      ...ranking,
      ...ranking.map((k) => `retrieval_${k}`),
      'answer_f1',
      'rouge_l',
      'correctness',
      'groundedness',
      'relevance',
      'rubric',
      'tool_assertion',
      'tool_precision',
      'duplicate_citations',
      'invalid_citations',
      'missing_phrases',
      'forbidden_phrases',
      'unmatched_patterns',
      'forbidden_matches',
      'no_answer_ok',
      'pass',
      'failed_conditions',
      'checked',
    ]);
    expect(ScoresSchema.parse(scores)).toEqual(scores);
    expect(scores.retrieval_precision_at_1).toBe(1);
    expect(scores.tool_assertion).toBe(0);
  });
});

describe('computeScores on lists read in place', () => {
  it('scores as the sets and sorted copies would, on seeded lists with spaces, empties, repeats and long ones', () => {
    let seed = 3;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const ids = ['A', 'B', 'C', 'D', ' A', 'B ', '', '  ', 'E', 'F'];
    const list = (most: number) =>
      Array.from({ length: Math.floor(next() * most) }, () => ids[Math.floor(next() * ids.length)]!);
    for (let k = 0; k < 500; k++) {
      const most = k % 10 === 0 ? 60 : 8; // some over the in-place limit
      const citations = list(most).map((document_id) => ({ citation_number: 1 + Math.floor(next() * 5), document_id }));
      const cited = k % 3 === 0 ? citedDocumentIds(citations) : list(most);
      const top = list(most);
      const expected = list(6);
      const figures: ScoredFigures = {
        outcome: 'ok',
        answer: 'An answer.',
        citations,
        cited_document_ids: cited,
        top_document_ids: top,
        markers_without_citation: k % 4 === 0 ? [7] : [],
      };
      const s = computeScores(figures, expectations({ expected_document_ids: expected }));
      const ranked = rankedUnique(cited).ranked;
      const wantExpected = rankedUnique(expected).ranked;
      const given = new Set(top.map((id) => id.trim()));
      expect(s.duplicate_citations).toBe(rankCitations(citations).duplicates);
      expect(s.invalid_citations).toBe(ranked.filter((id) => !given.has(id)).length + (k % 4 === 0 ? 1 : 0));
      expect(s).toMatchObject({ ...citationScores(ranked, wantExpected), ...rankingScores(ranked, wantExpected) });
      const retrieval = rankingScores(rankedUnique(top).ranked, wantExpected);
      for (const [key, value] of Object.entries(retrieval)) expect(s[`retrieval_${key}` as keyof typeof s]).toBe(value);
    }
  });
});
