/**
 * @module reports/answer-notes
 * The judge's verdicts and the checks' results of one answer as plain phrases ("correctness 0.800
 * (names the policy)"): why a score is what it is. report.md and report.html both list them under
 * each worst question, so they read the same in both.
 */
import type { AnswerFigures } from '../records/record.js';
import { formatScore } from './format.js';

export interface AnswerNotes {
  /** One phrase per judged figure: score and reason, or the judge's error. */
  readonly judge: string[];
  /** One phrase per check that said something: score and reason, or its error. */
  readonly checks: string[];
}

export function answerNotes(figures: Pick<AnswerFigures, 'judge' | 'checks'>): AnswerNotes {
  const judge = Object.entries(figures.judge?.verdicts ?? {}).flatMap(([figure, v]) => {
    if (v === undefined || v.status === 'not_applicable') return [];
    if (v.status === 'judge_error') return [`${figure}: judge error (${v.error ?? 'no verdict'})`];
    return [`${figure} ${formatScore(v.score)}${v.reason ? ` (${v.reason})` : ''}`];
  });
  const checks = Object.entries(figures.checks).flatMap(([name, c]) =>
    c.error !== null ? [`${name}: error (${c.error})`] : c.score === null ? [] : [`${name} ${Number(c.score.toFixed(3))}${c.reason ? ` (${c.reason})` : ''}`],
  );
  return { judge, checks };
}
