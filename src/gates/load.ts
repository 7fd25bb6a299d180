/**
 * @module gates/load
 * Gates on a load run's figures (issue 5 §4: `load --gate "ttfp_ms.p99 <= 3000" --gate
 * "rate_limited_rate <= 0.05"`). The same grammar and results as eval gates, read from the load
 * summary's measured window instead of a set × mode group; the load-only figures (`response_ms`,
 * `queue_ms`, `goodput`, `…_per_s`, `late_sends`, `dropped`) are added to the catalogue.
 */
import { UsageError } from '../errors.js';
import { loadFigureValue, parseLoadGate } from '../metrics/load-figures.js';
import type { LoadSummary } from '../records/load-summary.js';
import type { GateVerdict } from '../figures/gate-verdict.js';
import { formatFigureValue } from '../figures/units.js';
import { compareOp, describeGate, gateFigure, type Gate } from '../figures/grammar.js';

/** Parses a `--gate` of `chatbench load` (the load figures are known). */
export const parseLoadGateFlag = (text: string): Gate => parseLoadGate(text, `--gate "${text}"`);

/**
 * Evaluates each gate on the measured window. A scope must match the run's set and mode, and
 * delta/ratio gates need a baseline a load run does not have: both are UsageErrors. A figure with
 * no value fails its gate, saying so.
 */
export function evaluateLoadGates(gates: readonly Gate[], summary: LoadSummary): GateVerdict[] {
  const { set, mode } = summary.run;
  const target = { set, mode, model_index: null, model_name: null, label: `${set}/${mode}` };
  return gates.map((gate) => {
    const where = `gate "${gate.text}"`;
    if (gate.set !== null && gate.set !== set)
      throw new UsageError(`${where}: set:${gate.set} names no set of the run (it ran ${set})`);
    if (gate.mode !== null && gate.mode !== mode)
      throw new UsageError(`${where}: mode:${gate.mode} names no mode of the run (it ran ${mode})`);
    if (gate.against !== 'value')
      throw new UsageError(
        `${where}: ${gate.against} needs a baseline; a load run's gates compare values (use compare for baselines)`,
      );
    // A turn the plan lacks was refused before the run (cli/commands/load); one the measured window
    // did not reach (conversations cut short, a short run) has no value, and its gate fails.
    const turn = gate.turn ?? null;
    const value =
      summary.by_turn[String(turn)] === undefined && turn !== null
        ? null
        : loadFigureValue(summary, gate.figure, gate.stat, turn);
    const passed = value !== null && compareOp(value, gate.op, gate.threshold);
    const of = turn === null ? 'the measured window' : `turn ${turn} in the measured window`;
    const detail = value === null ? `no ${gateFigure(gate)} in ${of}` : formatFigureValue(gateFigure(gate), value);
    return {
      gate,
      target,
      value,
      baseline: null,
      current: value,
      ci: null,
      significant: null,
      passed,
      questions: [],
      reason: `${describeGate(gate)} ${passed ? 'passed' : 'failed'} for ${of} of ${target.label}: ${detail}`,
    };
  });
}
