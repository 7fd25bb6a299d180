/**
 * @module judge/inputs
 * What the judge is shown for each figure of one answer, or why the figure is N/A (docs/reference/metrics.md
 * "Answer quality"): correctness needs a reference answer, rubric a rubric, groundedness the text
 * of documents; relevance only the question and the answer. An empty answer is judged on nothing.
 * Pure: the same answer gives the same input, byte for byte, which is what the cache keys on.
 */
import type { JudgeDocument, JudgeInput, JudgeTask } from '../api/judge.js';
import { parseCitationMarkers, stripCitations } from '../records/citations.js';
import type { AnswerFigures } from '../records/record.js';

/** What the question says about its answer. */
export interface QuestionContext {
  question: string;
  reference_answer: string | null;
  rubric: string | null;
  expect_no_answer: boolean;
}

/** The answer's fields a judge reads. */
export type JudgedAnswer = Pick<AnswerFigures, 'answer' | 'citations' | 'top_documents'>;

/** Page text fetched through open-urls (--fetch-cited), by link. */
export type FetchedPages = ReadonlyMap<string, string>;

/** How much of a fetched page a judge is shown. */
export const FETCHED_CHARS = 6000;

export type JudgeInputOrSkip = { input: JudgeInput } | { skip: string };

/** The answer with each marker as `[n]` (links dropped), so a claim names its documents. */
export function answerWithMarkers(answer: string): string {
  let out = '';
  let from = 0;
  for (const marker of parseCitationMarkers(answer)) {
    out += `${answer.slice(from, marker.start)}[${marker.number}]`;
    from = marker.end;
  }
  return (out + answer.slice(from)).trim();
}

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)} [...]` : text);

/**
 * The documents groundedness is judged on: the cited ones in citation-number order (each once, its
 * first number), their text the blurb, the match highlights and the fetched page; when nothing is
 * cited, every document the answer was given, unnumbered. A cited document the answer was not given
 * has no text: its claims are unsupported.
 */
export function judgeDocuments(figures: JudgedAnswer, fetched: FetchedPages = new Map()): JudgeDocument[] {
  const textOf = (doc: JudgedAnswer['top_documents'][number] | undefined): string => {
    if (doc === undefined) return '';
    const page = doc.link === null ? undefined : fetched.get(doc.link);
    return [doc.blurb, ...doc.highlights, ...(page === undefined ? [] : [cut(page, FETCHED_CHARS)])]
      .filter((t) => t.trim() !== '')
      .join('\n…\n');
  };
  if (figures.citations.length === 0) {
    return figures.top_documents.map((doc) => ({ number: null, title: doc.title, text: textOf(doc) }));
  }
  const byId = new Map(figures.top_documents.map((doc) => [doc.document_id, doc]));
  const seen = new Set<string>();
  return [...figures.citations]
    .sort((a, b) => a.citation_number - b.citation_number)
    .filter((c) => !seen.has(c.document_id) && seen.add(c.document_id))
    .map((c) => {
      const doc = byId.get(c.document_id);
      return { number: c.citation_number, title: doc?.title ?? c.document_id, text: textOf(doc) };
    });
}

/** The input of `task` for this answer, or why the task does not apply. */
export function judgeInput(
  task: JudgeTask,
  figures: JudgedAnswer,
  context: QuestionContext,
  fetched?: FetchedPages,
): JudgeInputOrSkip {
  const plain =
    figures.answer === null
      ? ''
      : stripCitations(figures.answer)
          .replace(/\s+([.,;:!?])/g, '$1')
          .trim();
  if (plain === '') return { skip: 'empty answer' };
  const base = { task, question: context.question };
  switch (task) {
    case 'correctness':
      if (context.reference_answer === null || context.reference_answer.trim() === '')
        return { skip: 'no reference answer' };
      return { input: { ...base, answer: plain, reference_answer: context.reference_answer } };
    case 'rubric':
      if (context.rubric === null || context.rubric.trim() === '') return { skip: 'no rubric' };
      return { input: { ...base, answer: plain, rubric: context.rubric } };
    case 'relevance':
      return { input: { ...base, answer: plain, no_answer_expected: context.expect_no_answer } };
    case 'groundedness': {
      const documents = judgeDocuments(figures, fetched);
      if (documents.length === 0 || documents.every((d) => d.text === ''))
        return { skip: 'no document text (nothing cited, no document given)' };
      return { input: { ...base, answer: answerWithMarkers(figures.answer ?? ''), documents } };
    }
  }
}
