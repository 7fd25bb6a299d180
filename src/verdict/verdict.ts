/**
 * @module verdict/verdict
 * The one decision of a run (eval, load, capacity, merge) or a comparison: whether it passed, the
 * exit code that says so, a headline, and the reasons. Computed here once; every output renders the
 * same object (the terminal's verdict line, the exit code, `--json`, the top of report.md/html and
 * compare.md/html, the step summary, junit.xml, the viewer's overview) and decides nothing itself.
 *
 * The rules, in order:
 * - interrupted (SIGINT, --max-duration): INTERRUPTED, exit 130, whatever the checks said;
 * - the run could not be carried out (every request failed alike): RUN FAILED, exit 3;
 * - a failed gate or a broken SLO: FAILED, exit 1. An SLO is a threshold like a gate (k6's
 *   thresholds): broken, it fails the run. An SLO written `goodput:…` only defines goodput and
 *   never fails the run (shown, not counted);
 * - every gate and SLO held: PASSED, exit 0; none was set: DONE, exit 0.
 * A banner (failures by class, timing uncertainty) is carried along but decides nothing: a figure
 * that should decide is a gate (`--max-error-rate`, `--max-judge-error-rate`).
 */
import { z } from 'zod';
import { ExitCode } from '../errors.js';
import { gateFigure, type Gate, type GateOperator } from '../figures/grammar.js';
import { formatFigureDelta, formatFigureValue, formatRatio } from '../figures/units.js';

export const VERDICT_STATUSES = ['passed', 'failed', 'no-gate', 'run-failed', 'interrupted'] as const;
export type VerdictStatus = (typeof VERDICT_STATUSES)[number];

/** One check that decided: a gate, an SLO, or the run itself. */
export const VerdictReasonSchema = z.object({
  kind: z.enum(['gate', 'slo', 'run']),
  passed: z.boolean(),
  /** Shown but not counted (a goodput-only SLO). */
  counted: z.boolean(),
  /** The check as written: `ttft_ms.p95<=1500`. */
  text: z.string(),
  /** Its figures in their units: `ttft_ms.p95 2,026 ms > 1,500 ms`. */
  detail: z.string(),
});
export type VerdictReason = z.infer<typeof VerdictReasonSchema>;

/**
 * One "best" mark of the side-by-side tables: the set that is significantly best on one figure of
 * one group (mode, and model of a multi-model set), by the paired comparison of the run's sets
 * (compare/pairwise bestMarks). A figure with no mark has no clear winner.
 */
export const BestMarkSchema = z.object({
  /** A compare figure: `pass_rate`, `citation_recall`, `ttft_ms.p50`. */
  figure: z.string(),
  mode: z.enum(['stream', 'full']),
  model_index: z.number().int().nullable(),
  set: z.string(),
});
export type BestMark = z.infer<typeof BestMarkSchema>;

/**
 * What every report says of which model answered (metrics/model-notes): `warnings` (the service
 * named a model other than the one asked) are shown prominently; `note` (the service does not
 * confirm single-model answers) is one quiet line.
 */
export const ModelNotesSchema = z.object({
  warnings: z.array(z.string()),
  note: z.string().nullable(),
});
export type ModelNotes = z.infer<typeof ModelNotesSchema>;

export const VerdictSchema = z.object({
  status: z.enum(VERDICT_STATUSES),
  /** The process's exit code (errors.ts ExitCode, docs/reference/exit-codes.md). */
  exit_code: z.literal(Object.values(ExitCode)),
  /** `FAILED: 1 of 2 SLOs broken (ttft_ms.p95 2,026 ms > 1,500 ms)`: the verdict line, plain text. */
  headline: z.string(),
  /** Every gate and SLO, failures first. */
  reasons: z.array(VerdictReasonSchema),
  /** What every report says first (failures by class, timing uncertainty); decides nothing. */
  banners: z.array(z.string()),
  /** For a run of two or more sets (or a comparison): at most three lines per pair of sets. */
  comparisons: z.array(z.string()),
  /** The tables' "best" marks, decided by the pairs of sets; absent or [] = no mark anywhere. */
  best: z.array(BestMarkSchema).optional(),
  /** Which model answered, as the reports and the viewer say it; absent when the run has nothing to say. */
  models: ModelNotesSchema.optional(),
});
export type Verdict = z.infer<typeof VerdictSchema>;

/** What the verdict reads of a gate's result (figures/gate-verdict GateVerdict, load gates alike). */
export interface GateOutcome {
  readonly gate: Gate;
  readonly passed: boolean;
  readonly value: number | null;
  readonly target?: { readonly label: string } | undefined;
}

/** What the verdict reads of an SLO's result (records/load-summary SloResult). */
export interface SloOutcome {
  readonly text: string;
  readonly figure: string;
  readonly value: number | null;
  readonly passed: boolean;
  readonly op?: GateOperator | undefined;
  readonly threshold?: number | undefined;
  readonly goodput_only?: boolean | undefined;
}

export interface VerdictInput {
  readonly gates?: readonly GateOutcome[];
  readonly slos?: readonly SloOutcome[];
  readonly interrupted?: boolean;
  /** The exit code of the interrupt: 130 (SIGINT, --max-duration), 143 (SIGTERM), 129 (SIGHUP); default 130. */
  readonly interruptedExit?: ExitCode;
  /** Why the run could not be carried out; set → RUN FAILED. */
  readonly runFailed?: string | undefined;
  readonly banners?: readonly string[];
  readonly comparisons?: readonly string[];
  readonly best?: readonly BestMark[];
  readonly models?: ModelNotes | undefined;
  /** What the run did, after the decision: `75 requests, 75 ok`. */
  readonly detail?: string;
}

/** The relation that holds when a condition does not: `<=` broken means `>`. */
const BROKEN_OP: Readonly<Record<GateOperator, string>> = { '<=': '>', '<': '>=', '>=': '<', '>': '<=', '==': '!=' };

/** `ttft_ms.p95 2,026 ms > 1,500 ms` (broken) or `ttft_ms.p95 812 ms <= 1,500 ms` (met). */
function relation(
  figure: string,
  value: number | null,
  op: GateOperator | undefined,
  threshold: number | undefined,
  held: boolean,
  show: (name: string, v: number) => string = formatFigureValue,
): string {
  if (value === null) return `${figure} has no value`;
  if (op === undefined || threshold === undefined) return `${figure} ${show(figure, value)}`;
  return `${figure} ${show(figure, value)} ${held ? op : BROKEN_OP[op]} ${show(figure, threshold)}`;
}

/** A gate's figures in their units: `citation_recall delta -8.1 pts < -2 pts (accurate)`; the group named when `named`. */
export function gateDetail(g: GateOutcome, named = true): string {
  const name = gateFigure(g.gate);
  const show =
    g.gate.against === 'delta'
      ? formatFigureDelta
      : g.gate.against === 'ratio'
        ? (_: string, v: number) => formatRatio(v)
        : formatFigureValue;
  const label = g.gate.against === 'value' ? name : `${name} ${g.gate.against}`;
  const text = relation(label, g.value, g.gate.op, g.gate.threshold, g.passed, (_, v) => show(name, v));
  return g.target === undefined || !named ? text : `${text} (${g.target.label})`;
}

/** An SLO's figures in their units: `ttft_ms.p95 2,026 ms > 1,500 ms`. */
export const sloDetail = (s: SloOutcome): string => relation(s.figure, s.value, s.op, s.threshold, s.passed);

const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);

/** `1 of 2 SLOs broken (ttft_ms.p95 2,026 ms > 1,500 ms)`; at most two named, then "…". */
function tally(reasons: readonly VerdictReason[], noun: [string, string], failedWord: string): string | undefined {
  if (reasons.length === 0) return undefined;
  const failed = reasons.filter((r) => !r.passed);
  if (failed.length === 0) return undefined;
  const named = failed
    .slice(0, 2)
    .map((r) => r.detail)
    .join('; ');
  return `${failed.length} of ${reasons.length} ${plural(reasons.length, noun[0], noun[1])} ${failedWord} (${named}${failed.length > 2 ? '; …' : ''})`;
}

function heldTally(gates: readonly VerdictReason[], slos: readonly VerdictReason[]): string {
  const parts = [
    slos.length === 0 ? '' : slos.length === 1 ? 'the SLO met' : `all ${slos.length} SLOs met`,
    gates.length === 0 ? '' : gates.length === 1 ? 'the gate passed' : `all ${gates.length} gates passed`,
  ].filter(Boolean);
  return parts.join('; ');
}

/** Decides. Pure: the same input gives the same verdict in every output. */
export function decide(input: VerdictInput): Verdict {
  // A gate's group is named only when the gates were checked on more than one.
  const named = new Set((input.gates ?? []).map((g) => g.target?.label)).size > 1;
  const gates = (input.gates ?? []).map((g): VerdictReason => ({
    kind: 'gate',
    passed: g.passed,
    counted: true,
    text: g.gate.text,
    detail: gateDetail(g, named),
  }));
  const slos = (input.slos ?? []).map((s): VerdictReason => ({
    kind: 'slo',
    passed: s.passed,
    counted: s.goodput_only !== true,
    text: s.text,
    detail: `${sloDetail(s)}${s.goodput_only ? ' (goodput only)' : ''}`,
  }));
  const countedSlos = slos.filter((s) => s.counted);
  const reasons = [...slos, ...gates].sort((a, b) => Number(a.passed) - Number(b.passed));
  const tail = input.detail === undefined || input.detail === '' ? '' : ` · ${input.detail}`;
  const failedText = [tally(countedSlos, ['SLO', 'SLOs'], 'broken'), tally(gates, ['gate', 'gates'], 'failed')].filter(
    (t): t is string => t !== undefined,
  );
  const base = {
    reasons,
    banners: [...(input.banners ?? [])],
    comparisons: [...(input.comparisons ?? [])],
    ...(input.best === undefined ? {} : { best: [...input.best] }),
    ...(input.models === undefined ? {} : { models: input.models }),
  };
  if (input.interrupted) {
    const said = failedText.length > 0 ? `; ${failedText.join('; ')}` : '';
    return {
      ...base,
      status: 'interrupted',
      exit_code: input.interruptedExit ?? ExitCode.Interrupted,
      headline: `INTERRUPTED${tail}${said}`,
    };
  }
  if (input.runFailed !== undefined)
    return { ...base, status: 'run-failed', exit_code: ExitCode.RunFailed, headline: `RUN FAILED: ${input.runFailed}` };
  if (failedText.length > 0)
    return {
      ...base,
      status: 'failed',
      exit_code: ExitCode.GateFailed,
      headline: `FAILED: ${failedText.join('; ')}${tail}`,
    };
  if (gates.length + countedSlos.length === 0)
    return { ...base, status: 'no-gate', exit_code: ExitCode.Ok, headline: `DONE: no gate or SLO set${tail}` };
  return {
    ...base,
    status: 'passed',
    exit_code: ExitCode.Ok,
    headline: `PASSED: ${heldTally(gates, countedSlos)}${tail}`,
  };
}

/**
 * A capacity search: FOUND (exit 0) when some step held every SLO, FAILED (exit 1) when none did,
 * INTERRUPTED (130). `line` is the search's own headline (reports/load/capacity-report).
 */
export function decideCapacity(found: boolean, line: string, interrupted: boolean): Verdict {
  const base = { reasons: [], banners: [], comparisons: [] };
  if (interrupted)
    return { ...base, status: 'interrupted', exit_code: ExitCode.Interrupted, headline: `INTERRUPTED: ${line}` };
  return found
    ? { ...base, status: 'passed', exit_code: ExitCode.Ok, headline: `FOUND: ${line}` }
    : { ...base, status: 'failed', exit_code: ExitCode.GateFailed, headline: `FAILED: ${line}` };
}

/** The verdict's word (`PASSED`, `FAILED`, `RUN FAILED`…) and the rest of its headline. */
export function splitHeadline(v: Pick<Verdict, 'headline'>): { word: string; rest: string } {
  const match = /^([A-Z][A-Z ]*[A-Z])(.*)$/s.exec(v.headline);
  return match ? { word: match[1]!, rest: match[2]! } : { word: '', rest: v.headline };
}

/** `verdict` with the exit code of the signal that interrupted it (129 SIGHUP, 130 SIGINT, 143 SIGTERM); any other verdict as it is. */
export function withInterruptExit(verdict: Verdict, code: ExitCode): Verdict {
  return verdict.status === 'interrupted' ? { ...verdict, exit_code: code } : verdict;
}
