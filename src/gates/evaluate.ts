/**
 * @module gates/evaluate
 * Evaluates gates against a run (and, for delta/ratio gates, its comparison with a baseline). An
 * unscoped gate applies to every set × mode of the current run — for a multi-model set, to each of
 * its models — and each must pass; `set:`/`mode:` narrow it, `turn:N` checks it on the run's N-th
 * conversation turns only (and against the baseline's N-th turns). Every result carries the figures
 * used and a one-line reason.
 */
import { UsageError } from '../errors.js';
import type { Mode } from '../records/record.js';
import { figureKind, higherIsBetter, isPooledFigure } from '../figures/catalogue.js';
import { questionValue } from '../metrics/question-value.js';
import { compareRuns, groupLabel } from '../compare/compare.js';
import { findGroup, groupValue, type GroupData, type RunData } from '../compare/run-data.js';
import { type Comparison, type FigureDelta, type GroupComparison } from '../compare/schema.js';
import { compareOp, describeGate, gateFigure, type Gate } from '../figures/grammar.js';
import type { GateVerdict } from '../figures/gate-verdict.js';
import { fewSamplesNote } from '../figures/min-samples.js';
import { formatFigureDelta, formatFigureValue, formatRatio } from '../figures/units.js';
import { fewSamplesText, withinTimingText } from '../compare/table.js';
import type { LatencyFigure } from '../records/summary.js';

/** What a gate is checked on besides the current run. */
export interface GateBaseline {
  baseline: RunData;
  comparison: Comparison;
}

const WORST_SHOWN = 5;

/** The set × mode (per model for multi-model sets) groups gates apply to, in the run's order. */
export function gateTargets(run: RunData): GroupData[] {
  const hasModels = (g: GroupData) =>
    run.groups.some((o) => o.set === g.set && o.mode === g.mode && o.model_index !== null);
  return run.groups.filter((g) => g.model_index !== null || !hasModels(g));
}

/**
 * Checks what can be checked before anything runs: a scope must name a set and mode of the run;
 * delta/ratio gates need a baseline. Throws UsageError naming the gate.
 */
export function checkGates(
  gates: readonly Gate[],
  run: { sets: readonly string[]; modes: readonly Mode[]; hasBaseline: boolean; turns?: readonly number[] },
): void {
  for (const gate of gates) {
    const where = `gate "${gate.text}"`;
    const turn = gate.turn ?? null;
    if (turn !== null && run.turns !== undefined && !run.turns.includes(turn)) {
      throw new UsageError(
        `${where}: turn:${turn} names no turn of the run (${run.turns.length === 0 ? 'it has no conversations' : `its conversations have turns ${[...run.turns].sort((a, b) => a - b).join(', ')}`})`,
      );
    }
    if (gate.set !== null && !run.sets.includes(gate.set)) {
      throw new UsageError(
        `${where}: set:${gate.set} names no set of the run (its sets: ${run.sets.join(', ') || 'none'})`,
      );
    }
    if (gate.mode !== null && !run.modes.includes(gate.mode))
      throw new UsageError(
        `${where}: mode:${gate.mode} names no mode of the run (it ran ${run.modes.join(', ') || 'nothing'})`,
      );
    if (gate.against !== 'value' && !run.hasBaseline) {
      throw new UsageError(
        `${where}: ${gate.against} needs a baseline to compare with (compare BASELINE CURRENT, or eval --baseline DIR)`,
      );
    }
  }
}

/** Up to 3 decimals, no trailing zeros; latencies to 0.1 ms. */
export function formatFigure(value: number | null, kind?: string): string {
  if (value === null || !Number.isFinite(value)) return 'n/a';
  const digits = kind === 'latency' && Math.abs(value) >= 10 ? 1 : 3;
  return String(Number(value.toFixed(digits)));
}

/** Questions whose value moved the wrong way the most (delta/ratio) or that are worst now (absolute). */
function worstQuestions(gate: Gate, target: GroupData, baselineGroup: GroupData | undefined): string[] {
  if (figureKind(gate.figure) === 'latency') return [];
  const sign = higherIsBetter(gate.figure) ? 1 : -1;
  const scored: [string, number][] = [];
  for (const [id, q] of target.questions) {
    const cv = questionValue(q, gate.figure);
    if (cv === null) continue;
    if (gate.against === 'value') scored.push([id, sign * cv]);
    else {
      const bq = baselineGroup?.questions.get(id);
      const bv = bq === undefined ? null : questionValue(bq, gate.figure);
      if (bv !== null && sign * (cv - bv) < 0) scored.push([id, sign * (cv - bv)]);
    }
  }
  if (gate.against === 'value') {
    const mean = scored.reduce((s, [, v]) => s + v, 0) / Math.max(1, scored.length);
    return scored
      .filter(([, v]) => v < mean)
      .sort((a, b) => a[1] - b[1])
      .slice(0, WORST_SHOWN)
      .map(([id]) => id);
  }
  return scored
    .sort((a, b) => a[1] - b[1])
    .slice(0, WORST_SHOWN)
    .map(([id]) => id);
}

/** The ratio interval of a figure: latencies have their own; for a score or rate, delta / baseline (the baseline taken as fixed). */
function ratioInterval(f: FigureDelta): FigureDelta['ci'] {
  if (f.kind === 'latency') return f.ratio_ci;
  if (f.ci === null || f.baseline === null || f.baseline === 0) return null;
  const a = 1 + f.ci.low / f.baseline;
  const b = 1 + f.ci.high / f.baseline;
  return { low: Math.min(a, b), high: Math.max(a, b) };
}

/**
 * Why a value gate has no value. A pass rate with nothing checked (no question of the group expects
 * anything: summary's pass_rate null, unchecked_questions > 0) fails saying so, never passing silently.
 */
function noValueText(name: string, current: RunData, target: GroupData): string {
  const unchecked = findGroup(current, target)?.group.unchecked_questions ?? 0;
  if (name === 'pass_rate' && unchecked > 0)
    return `not checked: none of its ${unchecked} questions expects anything (propose expected_documents with chatbench draft-expectations)`;
  return `no ${name} in the run (no ok request had it)`;
}

/** How many samples a latency figure's statistic rests on: requests, or (the ITL) pooled gaps. */
function latencySamples(figure: string, target: GroupData, current: RunData): number {
  if (isPooledFigure(figure)) return findGroup(current, target)?.group[figure]?.count ?? 0;
  return target.latency[figure as LatencyFigure]?.length ?? 0;
}

function evaluateOne(gate: Gate, target: GroupData, current: RunData, compared: GateBaseline | undefined): GateVerdict {
  const kind = figureKind(gate.figure);
  const name = gateFigure(gate);
  const turn = gate.turn ?? null;
  const where = `for set ${target.set}/${target.mode}${target.model_index === null ? '' : ` model ${target.model_name ?? target.model_index}`}${turn === null ? '' : ` turn ${turn}`}`;
  const group: GroupComparison | undefined =
    gate.against === 'value'
      ? undefined
      : compared?.comparison.groups.find(
          (g) => g.set === target.set && g.mode === target.mode && g.model_index === target.model_index,
        );
  const baselineGroup =
    group &&
    compared?.baseline.groups.find(
      (g) => g.set === group.baseline_set && g.mode === group.mode && g.model_index === group.model_index,
    );
  const ref = {
    set: target.set,
    mode: target.mode,
    model_index: target.model_index,
    model_name: target.model_name,
    label: groupLabel(target),
  };
  const result = (
    fields: Omit<GateVerdict, 'gate' | 'target' | 'reason' | 'questions'>,
    detail: string,
  ): GateVerdict => {
    const questions = fields.passed ? [] : worstQuestions(gate, target, baselineGroup);
    const worst =
      questions.length > 0 ? `; ${gate.against === 'value' ? 'lowest' : 'dropped most'}: ${questions.join(', ')}` : '';
    return {
      gate,
      target: ref,
      ...fields,
      reason: `${describeGate(gate)} ${fields.passed ? 'passed' : 'failed'} ${where}: ${detail}${worst}`,
      questions,
    };
  };
  if (gate.against === 'value') {
    const value = groupValue(current, target, gate.figure, gate.stat ?? undefined);
    if (value === null)
      return result(
        { value, baseline: null, current: null, ci: null, significant: null, passed: false },
        noValueText(name, current, target),
      );
    const passed = compareOp(value, gate.op, gate.threshold);
    // A percentile from too few samples is still checked, but the reason says how little it rests on.
    const few = kind === 'latency' ? fewSamplesNote(name, latencySamples(gate.figure, target, current)) : undefined;
    return result(
      { value, baseline: null, current: value, ci: null, significant: null, passed },
      `${formatFigureValue(name, value)}${few === undefined ? '' : ` (uncertain: ${few})`}`,
    );
  }
  const figure = group?.figures.find((f) => f.figure === name);
  if (group === undefined || figure === undefined) {
    return result(
      { value: null, baseline: null, current: null, ci: null, significant: null, passed: false },
      'not in the baseline',
    );
  }
  const value = gate.against === 'delta' ? figure.delta : figure.ratio;
  const ci = gate.against === 'delta' ? figure.ci : ratioInterval(figure);
  // "Significant" means one thing in the comparison's headline, its table and its gates: the
  // figure's own 95% interval excludes no change AND it survives Benjamini–Hochberg over every test
  // of the comparison (compare/compare); never with too few values.
  const significant = figure.significant;
  const base = { baseline: figure.baseline, current: figure.current, ci, significant };
  if (value === null) {
    return result(
      { value, ...base, passed: false },
      `no ${gate.against} (${name} ${formatFigureValue(name, figure.baseline)} → ${formatFigureValue(name, figure.current)})`,
    );
  }
  const holds = compareOp(value, gate.op, gate.threshold);
  const passed = holds || (gate.significant && !significant);
  const change = (v: number) => (gate.against === 'ratio' ? formatRatio(v) : formatFigureDelta(name, v));
  const interval = ci === null ? '' : ` [${change(ci.low)}, ${change(ci.high)}]`;
  const within = withinTimingText(figure);
  const afterFdr =
    figure.significant_alone && figure.q_value !== null
      ? ` (its own interval excludes no change, but it does not hold after the FDR correction: q = ${figure.q_value.toFixed(3)})`
      : '';
  const verdict = significant
    ? 'significant'
    : !figure.enough_samples
      ? `not tested (${fewSamplesText(figure) ?? 'too few values'})`
      : within === undefined
        ? `not significant${afterFdr}`
        : `not significant (${within})`;
  const detail = `${change(value)}${interval} ${verdict} (${formatFigureValue(name, figure.baseline)} → ${formatFigureValue(name, figure.current)})`;
  return result({ value, ...base, passed }, detail);
}

/**
 * Evaluates every gate on every group it applies to. Delta and ratio gates read `compared` (a
 * UsageError when there is none); a group missing from the baseline, or a figure with no value,
 * fails its gate with a reason saying so. With `significant`, a gate fails only when the threshold
 * is crossed and the change is significant as the comparison's headline and table count it
 * (`significant`: its own 95% interval excludes 0 and it survives Benjamini–Hochberg over every
 * test of the comparison; never with fewer values than figures/min-samples asks).
 */
export function evaluateGates(gates: readonly Gate[], current: RunData, compared?: GateBaseline): GateVerdict[] {
  const targets = gateTargets(current);
  checkGates(gates, {
    sets: current.summary.run.sets,
    modes: [...new Set(targets.map((t) => t.mode))],
    hasBaseline: compared !== undefined,
    turns: [...current.turns.keys()],
  });
  const atTurn = new Map<number, { run: RunData; compared: GateBaseline | undefined }>();
  return gates.flatMap((gate) => {
    const turn = gate.turn ?? null;
    let view = { run: current, compared };
    if (turn !== null) {
      view = atTurn.get(turn) ?? {
        run: current.turns.get(turn)!,
        compared: compared && turnBaseline(compared, current.turns.get(turn)!, turn),
      };
      atTurn.set(turn, view);
    }
    const scoped = (turn === null ? targets : gateTargets(view.run)).filter(
      (t) => (gate.set === null || t.set === gate.set) && (gate.mode === null || t.mode === gate.mode),
    );
    if (scoped.length === 0)
      throw new UsageError(
        `gate "${gate.text}": its scope names no group of the run (set ${gate.set ?? 'any'}, mode ${gate.mode ?? 'any'}${turn === null ? '' : `, turn ${turn}`})`,
      );
    return scoped.map((target) => evaluateOne(gate, target, view.run, view.compared));
  });
}

/** The baseline and comparison at one turn number: the same turn of both runs, compared as the whole runs were. */
function turnBaseline(compared: GateBaseline, current: RunData, turn: number): GateBaseline {
  const { comparison } = compared;
  const baseline = compared.baseline.turns.get(turn);
  if (baseline === undefined) return { baseline: compared.baseline, comparison: { ...comparison, groups: [] } };
  return {
    baseline,
    comparison: compareRuns(baseline, current, {
      seed: comparison.seed,
      resamples: comparison.resamples,
      setMap: comparison.set_map,
    }),
  };
}
