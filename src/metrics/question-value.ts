/**
 * @module metrics/question-value
 * One question's value of a per-question figure of the catalogue (figures/catalogue): what paired
 * comparisons and gates compare question by question.
 */
import type { Outcome } from '../records/record.js';
import { questionRepeatFigures } from './repeats.js';

/** A question's data as the comparison keeps it (compare/run-data QuestionData). */
export interface QuestionFigures {
  outcomes: readonly Outcome[];
  passes: readonly boolean[];
  /** One of its tries was checked (metrics/pass); false: its pass_rate is null ("not checked"). Absent: checked. */
  checked?: boolean;
  /** Its per-name score means (the catalogue's scores and the user's checks); absent: none. */
  scores?: ScoreMeans;
  /** Per try, a person's verdict on its answer (reviews.jsonl): true pass, false fail, null not reviewed. */
  human?: readonly (boolean | null)[];
  /**
   * Per try, for the first turn of a conversation: whether the whole conversation (that repeat)
   * passed; null for any other question. What pairs conversation_pass_rate by conversation.
   */
  conversation_passes?: readonly (boolean | null)[];
  /** The judge's asks over the question's tries and those without a verdict (judge_error_rate). */
  judge?: { readonly asks: number; readonly failed: number };
}

/**
 * A question's mean of each score and check name: `mean(slots.get(name))`, NaN where the question
 * has no value of that name (its values are finite: their mean is never NaN). `slots` is shared by every
 * question of a run and the means are kept in columns per group (compare/run-data): a dictionary
 * object of some fifty numbers per question cost a run of distinct questions about 3 KB a question.
 */
export interface ScoreMeans {
  readonly slots: ReadonlyMap<string, number>;
  mean(slot: number): number;
}

/** A question's mean of a score or check; null when it has none. */
export function scoreMean(scores: ScoreMeans | undefined, name: string): number | null {
  const slot = scores?.slots.get(name);
  if (slot === undefined) return null;
  const mean = scores!.mean(slot);
  return Number.isNaN(mean) ? null : mean;
}

const share = (values: readonly boolean[]): number | null =>
  values.length === 0 ? null : values.filter(Boolean).length / values.length;

/**
 * One question's value of a score or rate figure: a score is its mean over the ok tries where it
 * is not N/A (missing → null); a rate is the share of its tries; a repeat figure is 0 or 1.
 * error_rate counts outcomes that are neither ok nor rate_limited nor skipped (a conversation turn
 * not sent because the one before it failed: that one is the error); human_pass_rate is the share of
 * the reviewed tries a person judged pass (null when none was reviewed); conversation_pass_rate, on
 * the first turn of a conversation, the share of its tries whose every turn passed (null elsewhere).
 */
export function questionValue(q: QuestionFigures, figure: string): number | null {
  switch (figure) {
    case 'pass_rate':
      return q.checked === false ? null : share(q.passes);
    case 'ok_rate':
      return share(q.outcomes.map((o) => o === 'ok'));
    case 'error_rate':
      return share(q.outcomes.map((o) => o !== 'ok' && o !== 'rate_limited' && o !== 'skipped'));
    case 'rate_limited_rate':
      return share(q.outcomes.map((o) => o === 'rate_limited'));
    case 'human_pass_rate':
      return share((q.human ?? []).filter((v): v is boolean => v !== null));
    case 'judge_error_rate':
      return q.judge === undefined || q.judge.asks === 0 ? null : q.judge.failed / q.judge.asks;
    case 'conversation_pass_rate':
      return share((q.conversation_passes ?? []).filter((v): v is boolean => v !== null));
    case 'pass_at_n':
    case 'pass_all_n':
    case 'flaky_rate': {
      if (q.outcomes.length === 0) return null;
      const r = questionRepeatFigures({ outcomes: [...q.outcomes], passes: [...q.passes] });
      return Number(figure === 'flaky_rate' ? r.flaky : r[figure]);
    }
    default:
      return scoreMean(q.scores, figure);
  }
}
