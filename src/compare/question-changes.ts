/**
 * @module compare/question-changes
 * What broke and what was fixed, question by question, with both sides' answers and citations.
 * With repeats, a side "passes" (or "hits") when more than half of its tries do, so a question
 * flapping the same way in both runs is not listed.
 */
import type { Outcome } from '../records/record.js';
import { naturalCompare } from '../reports/format.js';
import { questionValue, scoreMean } from '../metrics/question-value.js';
import type { QuestionData } from './run-data.js';
import type { QuestionChange, QuestionSide } from './schema.js';

const majority = (share: number | null): boolean | null => (share === null ? null : share > 0.5);
const hit = (q: QuestionData): boolean | null => {
  const value = scoreMean(q.scores, 'hit_at_5');
  return value === null ? null : value >= 0.5;
};

function side(q: QuestionData): QuestionSide {
  return {
    outcomes: [...q.outcomes],
    pass: questionValue(q, 'pass_rate'),
    hit_at_5: scoreMean(q.scores, 'hit_at_5'),
    citation_recall: scoreMean(q.scores, 'citation_recall'),
    answer: q.answer,
    cited_document_ids: [...q.cited_document_ids],
  };
}

const failures = (q: QuestionData): Set<Outcome> => new Set(q.outcomes.filter((o) => o !== 'ok'));

/** The changes of one question, worse ones and better ones. */
function changesOf(b: QuestionData, c: QuestionData): { broke: string[]; fixed: string[] } {
  const broke: string[] = [];
  const fixed: string[] = [];
  const bp = majority(questionValue(b, 'pass_rate'));
  const cp = majority(questionValue(c, 'pass_rate'));
  if (bp === true && cp === false) broke.push('pass→fail');
  if (bp === false && cp === true) fixed.push('fail→pass');
  const bh = hit(b);
  const ch = hit(c);
  if (bh === true && ch === false) broke.push('hit@5→miss');
  if (bh === false && ch === true) fixed.push('miss→hit@5');
  const bf = failures(b);
  const cf = failures(c);
  for (const o of cf) if (!bf.has(o)) broke.push(`new ${o}`);
  for (const o of bf) if (!cf.has(o)) fixed.push(`no more ${o}`);
  return { broke, fixed };
}

/**
 * Broken and fixed questions among those both sides have, in natural question-id order. A question
 * can be in both lists (it stopped timing out but now fails its checks).
 */
export function questionChanges(
  baseline: ReadonlyMap<string, QuestionData>,
  current: ReadonlyMap<string, QuestionData>,
): { broken: QuestionChange[]; fixed: QuestionChange[] } {
  const broken: QuestionChange[] = [];
  const fixed: QuestionChange[] = [];
  const ids = [...current.keys()].filter((id) => baseline.has(id)).sort(naturalCompare);
  for (const id of ids) {
    const b = baseline.get(id)!;
    const c = current.get(id)!;
    const { broke, fixed: better } = changesOf(b, c);
    const entry = (changes: string[]): QuestionChange => ({
      question_id: id,
      question: c.question,
      changes,
      baseline: side(b),
      current: side(c),
    });
    if (broke.length > 0) broken.push(entry(broke));
    if (better.length > 0) fixed.push(entry(better));
  }
  return { broken, fixed };
}
