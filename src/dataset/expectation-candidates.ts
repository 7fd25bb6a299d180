/**
 * @module dataset/expectation-candidates
 * The documents a first run proposes as a question's `expected_documents`: every document an answer
 * cited or was given (top documents), ranked by how many sets cited it. Pure: records in (one at a
 * time, so a run is never held whole), candidates out. What `chatbench draft-expectations` and the
 * viewer's accept/reject show.
 */
import type { RequestRecord } from '../records/record.js';

/** One proposed document of one question. */
export interface Candidate {
  readonly document_id: string;
  /** The document's title and link as the service gave them (null when no answer was given it). */
  readonly title: string | null;
  readonly link: string | null;
  /** Distinct sets whose answers cited it (any repeat, any mode). */
  readonly sets_cited: number;
  /** Answers (records) that cited it. */
  readonly cited: number;
  /** Answers that were given it among their top documents. */
  readonly top: number;
  /** Its best (lowest, 1-based) place among an answer's top documents; null when never among them. */
  readonly best_rank: number | null;
}

/** The candidates of one question, best first. */
export interface QuestionCandidates {
  readonly question_id: string;
  readonly question: string;
  /** The dataset's expected documents as the run had them (empty: the question was not checked). */
  readonly expected: readonly string[];
  /** Answers read for this question. */
  readonly answers: number;
  readonly candidates: readonly Candidate[];
}

interface Tally {
  title: string | null;
  link: string | null;
  sets: Set<string>;
  cited: number;
  top: number;
  bestRank: number | null;
}

interface QuestionTally {
  question: string;
  expected: readonly string[];
  answers: number;
  docs: Map<string, Tally>;
}

/** Candidates kept per question: a question's answers may be given dozens of documents each. */
export const MAX_CANDIDATES = 20;

/** Best first: more sets cited it, then more answers cited it, then more were given it, then its best rank, then its id. */
export function compareCandidates(a: Candidate, b: Candidate): number {
  return (
    b.sets_cited - a.sets_cited ||
    b.cited - a.cited ||
    b.top - a.top ||
    (a.best_rank ?? Infinity) - (b.best_rank ?? Infinity) ||
    (a.document_id < b.document_id ? -1 : a.document_id > b.document_id ? 1 : 0)
  );
}

type CandidateSource = Pick<
  RequestRecord,
  | 'question_id'
  | 'question'
  | 'set'
  | 'expected_document_ids'
  | 'cited_document_ids'
  | 'top_document_ids'
  | 'top_documents'
>;

/** Tallies records as they are read, then ranks: `add` each record, `result` once. */
export function createCandidateTally() {
  const questions = new Map<string, QuestionTally>();
  const tallyOf = (docs: Map<string, Tally>, id: string): Tally => {
    let tally = docs.get(id);
    if (tally === undefined) {
      tally = { title: null, link: null, sets: new Set(), cited: 0, top: 0, bestRank: null };
      docs.set(id, tally);
    }
    return tally;
  };
  return {
    add(record: CandidateSource): void {
      let question = questions.get(record.question_id);
      if (question === undefined) {
        question = { question: record.question, expected: record.expected_document_ids, answers: 0, docs: new Map() };
        questions.set(record.question_id, question);
      }
      question.answers += 1;
      for (const id of new Set(record.cited_document_ids)) {
        const tally = tallyOf(question.docs, id);
        tally.cited += 1;
        tally.sets.add(record.set);
      }
      record.top_document_ids.forEach((id, index) => {
        const tally = tallyOf(question.docs, id);
        if (tally.bestRank === null || index + 1 < tally.bestRank) tally.bestRank = index + 1;
      });
      for (const id of new Set(record.top_document_ids)) tallyOf(question.docs, id).top += 1;
      for (const doc of record.top_documents) {
        const tally = question.docs.get(doc.document_id);
        if (tally === undefined) continue;
        tally.title ??= doc.title;
        tally.link ??= doc.link;
      }
    },
    /** Every question read, in the order first read, each with its best MAX_CANDIDATES candidates. */
    result(): QuestionCandidates[] {
      return [...questions].map(([question_id, q]) => ({
        question_id,
        question: q.question,
        expected: q.expected,
        answers: q.answers,
        candidates: [...q.docs]
          .map(([document_id, t]) => ({
            document_id,
            title: t.title,
            link: t.link,
            sets_cited: t.sets.size,
            cited: t.cited,
            top: t.top,
            best_rank: t.bestRank,
          }))
          .sort(compareCandidates)
          .slice(0, MAX_CANDIDATES),
      }));
    },
  };
}

/** What a draft proposes for a question: its best `top` candidates cited by at least `minSets` sets. */
export function proposedIds(candidates: readonly Candidate[], options: { top: number; minSets: number }): string[] {
  return candidates
    .filter((c) => c.sets_cited >= options.minSets)
    .slice(0, options.top)
    .map((c) => c.document_id);
}
