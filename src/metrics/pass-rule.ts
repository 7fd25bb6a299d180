/**
 * @module metrics/pass-rule
 * The per-question pass rule, configurable with `--pass` (docs/figures.md, "Answer checks and the pass rule"). Without it the
 * default rule of checks.ts applies. With it, a request passes when it is `ok` and every condition
 * holds; `--pass default` adds the default rule to the conditions. A condition is a figure
 * condition in the gate grammar (figures/grammar), on one request's value: a score, a judged
 * figure or a user check, compared with a number (`correctness >= 0.7`).
 *
 * A figure that is N/A for the request (no reference answer, nothing expected) leaves its condition
 * out, as the default rule leaves out citation recall when nothing is expected. A figure that could
 * not be had (the judge failed, the check threw) fails its condition, saying so: a verdict that does
 * not exist is not a pass.
 */
import { UsageError } from '../errors.js';
import { figureKind } from '../figures/catalogue.js';
import { compareOp, parseGate, type ExtraFigures, type Gate } from '../figures/grammar.js';
import type { Outcome } from '../records/record.js';
import { JUDGE_FIGURES, type CheckResult, type JudgeFigure, type Judgement } from '../records/quality.js';
import type { ScoreName, Scores } from '../records/scores.js';

/** The word that stands for the default rule among `--pass` conditions. */
export const DEFAULT_RULE = 'default';

/** The default rule in words (report.md and docs/figures.md say it the same way). */
export const DEFAULT_RULE_TEXT =
  'ok, no invalid citation, an expected document cited when documents are expected, every must_contain phrase and no must_not_contain phrase, every must_match and no must_not_match pattern, nothing cited when no answer is expected, every expected tool used';

export interface PassRule {
  /** The `--pass` texts as given ([] = the default rule). */
  readonly texts: readonly string[];
  readonly conditions: readonly Gate[];
  /** The default rule applies (no --pass, or `--pass default`). */
  readonly includesDefault: boolean;
}

export const DEFAULT_PASS_RULE: PassRule = { texts: [], conditions: [], includesDefault: true };

/**
 * Parses `--pass` texts. `checkNames` are the user checks' figures (a condition may name them).
 * UsageError (exit 2) for a condition that is not a value condition on a per-request figure.
 */
export function parsePassRule(texts: readonly string[], checkNames: readonly string[] = []): PassRule {
  if (texts.length === 0) return DEFAULT_PASS_RULE;
  const extra: ExtraFigures = Object.fromEntries(checkNames.map((name) => [name, 'score' as const]));
  let includesDefault = false;
  const conditions: Gate[] = [];
  for (const text of texts) {
    if (text.trim() === DEFAULT_RULE) {
      includesDefault = true;
      continue;
    }
    const origin = `--pass "${text}"`;
    const gate = parseGate(text, origin, extra);
    const kind = figureKind(gate.figure) ?? extra[gate.figure];
    if (gate.set !== null || gate.mode !== null || (gate.turn ?? null) !== null)
      throw new UsageError(
        `${origin}: a pass condition applies to every request; it takes no set:, mode: or turn: scope`,
      );
    if (gate.against !== 'value')
      throw new UsageError(
        `${origin}: a pass condition compares one request's value; ${gate.against} belongs in --gate`,
      );
    if (kind !== 'score') {
      throw new UsageError(
        `${origin}: ${gate.figure} is not a figure of one request (a score, a judged figure or a check); ${kind === 'latency' ? 'latencies' : 'rates'} belong in --gate`,
      );
    }
    conditions.push(gate);
  }
  return { texts: [...texts], conditions, includesDefault };
}

/** The rule in words, for the report: `default (…)` or `ok and correctness >= 0.7 and …`. */
export function describePassRule(rule: PassRule): string {
  if (rule.conditions.length === 0) return `default: ${DEFAULT_RULE_TEXT}`;
  const parts = [
    'ok',
    ...(rule.includesDefault ? ['the default rule'] : []),
    ...rule.conditions.map((c) => `${c.figure} ${c.op} ${c.threshold}`),
  ];
  return parts.join(' and ');
}

/** The judged figures a rule names (they need a judge). */
export const judgedFiguresOf = (rule: PassRule): JudgeFigure[] =>
  JUDGE_FIGURES.filter((f) => rule.conditions.some((c) => c.figure === f));

/** What the rule reads of one answer. `scores.pass` is the default rule's verdict (metrics/score). */
export interface PassSubject {
  outcome: Outcome;
  scores: Scores;
  checks: Readonly<Record<string, CheckResult>>;
  judge: Judgement | null;
}

const isJudged = (name: string): name is JudgeFigure => (JUDGE_FIGURES as readonly string[]).includes(name);

/** Whether the answer passes, and the conditions that did not hold (each as `figure op threshold: why`). */
export function applyPassRule(
  rule: PassRule,
  subject: PassSubject,
): { pass: boolean; failed: string[]; checked: boolean } {
  // What the default rule tested of the question (scores' `checked`; an older record's: assume it did).
  const byDefault = rule.includesDefault && subject.scores.checked !== false;
  if (rule.conditions.length === 0)
    return { pass: subject.outcome === 'ok' && subject.scores.pass, failed: [], checked: byDefault };
  // A request that is not ok would have had its conditions applied: the question is checked.
  if (subject.outcome !== 'ok') return { pass: false, failed: [], checked: true };
  const failed: string[] = [];
  let applied = 0;
  if (rule.includesDefault && !subject.scores.pass) failed.push('the default rule');
  for (const c of rule.conditions) {
    const text = `${c.figure} ${c.op} ${c.threshold}`;
    const check = subject.checks[c.figure];
    const verdict = isJudged(c.figure) ? subject.judge?.verdicts[c.figure] : undefined;
    const value = check !== undefined ? check.score : (subject.scores[c.figure as ScoreName] ?? null);
    if (value === null) {
      if (check?.error != null) failed.push(`${text}: the check failed (${check.error})`);
      else if (verdict?.status === 'judge_error') failed.push(`${text}: judge error`);
      else continue;
      applied += 1;
      continue;
    }
    applied += 1;
    if (!compareOp(value, c.op, c.threshold)) failed.push(`${text}: ${Number(value.toFixed(3))}`);
  }
  return { pass: failed.length === 0, failed, checked: byDefault || applied > 0 };
}
