/**
 * @module metrics/judge-agreement
 * How far the judge can be trusted (docs/reference/metrics.md "Answer quality"): its agreement with human
 * verdicts — accuracy and Cohen's kappa, each with a 95% percentile bootstrap interval — and its
 * self-consistency across `--judge-repeat` asks (the flip rate). A judged score at or above
 * JUDGE_PASS_THRESHOLD is a pass verdict. Pure: the caller injects the seeded random source, so the
 * same records give the same intervals.
 */
import { answerKey } from '../records/answer-key.js';
import type { Label } from '../records/labels.js';
import type { HumanVerdicts } from '../records/review.js';
import { JUDGE_FIGURES, JUDGE_PASS_THRESHOLD, type JudgeFigure, type JudgeVerdict } from '../records/quality.js';
import type { AnswerFigures, RequestRecord } from '../records/record.js';
import type { Estimate, QualityAgreement, QualityConsistency } from '../records/summary.js';
import { percentile, proportionEstimate } from './stats.js';

/** One answer a human and the judge both gave a verdict on. */
export interface VerdictPair {
  judge: boolean;
  human: boolean;
}

/**
 * Cohen's kappa of two binary raters: (p_o − p_e) / (1 − p_e), p_e from each rater's pass share.
 * null when p_e = 1 (both raters gave one same verdict to every item: kappa is undefined) or no items.
 */
export function cohenKappa(pairs: readonly VerdictPair[]): number | null {
  const n = pairs.length;
  if (n === 0) return null;
  let agree = 0;
  let judgePass = 0;
  let humanPass = 0;
  for (const p of pairs) {
    if (p.judge === p.human) agree += 1;
    if (p.judge) judgePass += 1;
    if (p.human) humanPass += 1;
  }
  const po = agree / n;
  const pe = (judgePass / n) * (humanPass / n) + (1 - judgePass / n) * (1 - humanPass / n);
  return pe >= 1 ? null : (po - pe) / (1 - pe);
}

const accuracyOf = (pairs: readonly VerdictPair[]): number =>
  pairs.filter((p) => p.judge === p.human).length / pairs.length;

/** Bootstrap resamples of the agreement intervals. */
export const AGREEMENT_RESAMPLES = 2000;

/**
 * Accuracy and kappa with 95% percentile bootstrap intervals: the items resampled with
 * replacement `resamples` times; a resample whose kappa is undefined is left out of kappa's
 * interval. No items → null.
 */
export function agreementOf(
  pairs: readonly VerdictPair[],
  random: () => number,
  resamples = AGREEMENT_RESAMPLES,
): { accuracy: Estimate; kappa: Estimate | null } | null {
  const n = pairs.length;
  if (n === 0) return null;
  const accuracies: number[] = [];
  const kappas: number[] = [];
  const sample: VerdictPair[] = new Array<VerdictPair>(n);
  for (let b = 0; b < resamples; b += 1) {
    for (let i = 0; i < n; i += 1) sample[i] = pairs[Math.floor(random() * n)]!;
    accuracies.push(accuracyOf(sample));
    const k = cohenKappa(sample);
    if (k !== null) kappas.push(k);
  }
  const estimate = (value: number, values: number[]): Estimate => {
    values.sort((a, b) => a - b);
    return { value, ci_low: percentile(values, 0.025) ?? value, ci_high: percentile(values, 0.975) ?? value };
  };
  const kappa = cohenKappa(pairs);
  return { accuracy: estimate(accuracyOf(pairs), accuracies), kappa: kappa === null ? null : estimate(kappa, kappas) };
}

/** Whether the asks of one item disagree on the pass verdict; null with fewer than two answered asks. */
export function flipped(asks: readonly (number | null)[]): boolean | null {
  const verdicts = asks.filter((a): a is number => a !== null).map((a) => a >= JUDGE_PASS_THRESHOLD);
  if (verdicts.length < 2) return null;
  return verdicts.some((v) => v !== verdicts[0]);
}

/** Takes records, gives the agreement and consistency rows of a run (summary.json `quality`). */
export interface AgreementAccumulator {
  add(record: RequestRecord): void;
  finish(): { agreement: QualityAgreement[]; consistency: QualityConsistency[] };
}

/**
 * The humans' verdict on an answer, most specific first: a review of that very answer
 * (reviews.jsonl, `chatbench view`: good is a pass), then the labels file (question × set × figure
 * over question × set over question × figure over question), then the record's own `human_verdict`
 * (the dataset's column, per question). `randomFor(figure)` gives each figure's seeded bootstrap
 * stream.
 */
export function createAgreementAccumulator(
  labels: readonly Label[],
  randomFor: (figure: JudgeFigure) => () => number,
  reviews: HumanVerdicts = new Map(),
): AgreementAccumulator {
  const byKey = new Map<string, Label>();
  for (const label of labels) byKey.set(JSON.stringify([label.question_id, label.set, label.figure]), label);
  const find = (question: string, set: string, figure: JudgeFigure) =>
    byKey.get(JSON.stringify([question, set, figure])) ??
    byKey.get(JSON.stringify([question, set, null])) ??
    byKey.get(JSON.stringify([question, null, figure])) ??
    byKey.get(JSON.stringify([question, null, null]));
  const pairs = new Map<JudgeFigure, VerdictPair[]>(JUDGE_FIGURES.map((f) => [f, []]));
  const flips = new Map<JudgeFigure, { items: number; flipped: number }>(
    JUDGE_FIGURES.map((f) => [f, { items: 0, flipped: 0 }]),
  );

  const observe = (record: RequestRecord, figures: AnswerFigures, modelIndex: number | null) => {
    const reviewed = reviews.get(answerKey(record.key, modelIndex));
    for (const [figure, verdict] of Object.entries(figures.judge?.verdicts ?? {}) as [JudgeFigure, JudgeVerdict][]) {
      if (verdict.status !== 'ok' || verdict.score === null) continue;
      const flip = flipped(verdict.asks);
      if (flip !== null) {
        const f = flips.get(figure)!;
        f.items += 1;
        if (flip) f.flipped += 1;
      }
      const label = find(record.question_id, record.set, figure);
      const human =
        reviewed !== undefined
          ? reviewed.pass
          : (label?.verdict ?? record.human_verdict) === null
            ? null
            : (label?.verdict ?? record.human_verdict) === 'pass';
      if (human !== null) pairs.get(figure)!.push({ judge: verdict.score >= JUDGE_PASS_THRESHOLD, human });
    }
  };

  return {
    add(record) {
      if (record.models === null) observe(record, record, null);
      for (const model of record.models ?? []) observe(record, model, model.model_index);
    },
    finish() {
      const agreement: QualityAgreement[] = [];
      const consistency: QualityConsistency[] = [];
      for (const figure of JUDGE_FIGURES) {
        const items = pairs.get(figure)!;
        const stats = agreementOf(items, randomFor(figure));
        if (stats !== null) {
          agreement.push({
            figure,
            n: items.length,
            judge_pass: items.filter((p) => p.judge).length,
            human_pass: items.filter((p) => p.human).length,
            accuracy: stats.accuracy,
            kappa: stats.kappa,
          });
        }
        const f = flips.get(figure)!;
        if (f.items > 0)
          consistency.push({
            figure,
            items: f.items,
            flipped: f.flipped,
            flip_rate: proportionEstimate(f.flipped, f.items)!,
          });
      }
      return { agreement, consistency };
    },
  };
}
