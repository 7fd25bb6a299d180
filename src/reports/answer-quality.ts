/**
 * @module reports/answer-quality
 * The answer-quality part of report.md and report.html, built once so both say the same: the pass
 * rule, who judged (and that the simulator's judge follows rules, not a model), the user's checks,
 * the judge and check errors per column, the judge's agreement with human verdicts, and its flip
 * rate across repeated asks. Each table is rows of display text; empty when there is nothing to say.
 */
import type { Estimate, MeanEstimate, QualitySummary } from '../records/summary.js';
import type { ReportColumn } from './comparison.js';
import { formatCount, formatPct, NA } from './format.js';
import { SIM_JUDGE_MODEL } from '../api/sim-judge.js';

export interface QualityLines {
  passRule: string;
  /** Who judged, in a sentence; null when nothing was judged. */
  judge: string | null;
  checks: readonly string[];
}

export function qualityLines(quality: QualitySummary): QualityLines {
  const j = quality.judge;
  const asked = j === null ? '' : j.repeat > 1 ? `, each figure asked ${j.repeat} times (the verdict is the mean)` : ', each figure asked once';
  const rules = j?.model === SIM_JUDGE_MODEL ? '; the simulated judge\'s verdicts follow documented rules over the texts, not a model' : '';
  return {
    passRule: quality.pass_rule,
    judge: j === null ? null : `${j.model} (prompts ${j.prompt_version})${asked}${rules}`,
    checks: quality.checks,
  };
}

/** Judge and check errors: one row per figure that had any, a count per column. */
export function errorRows(columns: readonly ReportColumn[]): { header: string[]; rows: string[][] } {
  const figures = [...new Set(columns.flatMap((c) => Object.keys(c.group.figure_errors)))].sort();
  return {
    header: ['figure', ...columns.map((c) => c.label)],
    rows: figures.map((f) => [f, ...columns.map((c) => formatCount(c.group.figure_errors[f] ?? 0))]),
  };
}

const share = (e: Estimate | null): string => (e === null ? NA : `${formatPct(e.value)} (${formatPct(e.ci_low).replace('%', '')}–${formatPct(e.ci_high)})`);
const kappa = (e: Estimate | null): string => (e === null ? `${NA} (undefined: one verdict throughout)` : `${e.value.toFixed(2)} (${e.ci_low.toFixed(2)} to ${e.ci_high.toFixed(2)})`);
const rate = (e: MeanEstimate): string => `${formatPct(e.mean)} (${formatPct(e.ci_low).replace('%', '')}–${formatPct(e.ci_high)})`;

/** The judge against human verdicts, per judged figure. */
export function agreementRows(quality: QualitySummary): { header: string[]; rows: string[][] } {
  return {
    header: ['figure', 'answers', 'judge passed', 'humans passed', 'accuracy [95% CI]', 'Cohen\'s kappa [95% CI]'],
    rows: quality.agreement.map((a) => [a.figure, formatCount(a.n), formatCount(a.judge_pass), formatCount(a.human_pass), share(a.accuracy), kappa(a.kappa)]),
  };
}

/** The judge against itself, per judged figure (--judge-repeat). */
export function consistencyRows(quality: QualitySummary): { header: string[]; rows: string[][] } {
  return {
    header: ['figure', 'answers asked twice or more', 'verdict flipped', 'flip rate [95% CI]'],
    rows: quality.consistency.map((c) => [c.figure, formatCount(c.items), formatCount(c.flipped), rate(c.flip_rate)]),
  };
}

/** The lines "how to read" adds about answer quality. */
export const QUALITY_HELP = [
  'answer F1 and ROUGE-L compare the answer\'s words with the reference answer (SQuAD normalisation), without a model',
  'correctness (agrees with the reference answer), groundedness (share of claims the cited documents support), relevance (addresses the question) and rubric (the row\'s criterion holds) are the judge\'s scores, 0 to 1',
  'a figure without its input (no reference answer, no rubric, no judge) is N/A, never 0; a judge failure is counted as an error and left out of the mean',
  'agreement: a judged score of 0.5 or more is a pass verdict, compared with the human verdicts; Cohen\'s kappa corrects the accuracy for agreement by chance (0 = chance, 1 = perfect)',
] as const;
