/**
 * @module metrics/load-slo
 * SLOs of a load run or a capacity step (`--slo "ttfp_ms.p95<=2000"`, `error_rate<=0.01`,
 * `rate_limited_rate<=0.05`). They are gates of the gate grammar (one parser, one figure
 * catalogue), with one addition: a latency without a statistic (`ttfp_ms<=1500`, docs/reference/metrics.md's
 * goodput example) is a per-request objective, checked on the window's max.
 *
 * Every latency SLO also defines goodput: an ok request is good when its own value meets every
 * latency SLO's threshold (`ttfp_ms.p95<=2000` → its ttfp_ms ≤ 2000). A request without the
 * figure (ttft_ms of a full response) is not good. Rate SLOs do not apply to single requests.
 *
 * A broken SLO fails the run (verdict/verdict), as a gate does. An SLO written with the prefix
 * `goodput:` (`--slo "goodput:ttft_ms<=1500"`) is the explicit exception: it defines goodput like
 * any latency SLO, is checked and shown, but never fails the run.
 */
import { UsageError } from '../errors.js';
import { compareOp, gateFigure, type Gate } from '../figures/grammar.js';
import { formatFigureValue } from '../figures/units.js';
import type { LoadSummary, SloResult } from '../records/load-summary.js';
import { LOAD_LATENCY_FIGURES, loadFigureValue, parseLoadGate, recordLatency } from './load-figures.js';

/** A parsed SLO. */
export interface Slo {
  readonly gate: Gate;
  /** Written without a statistic: per request (checked on max over the window). */
  readonly perRequest: boolean;
  /** Written `goodput:…`: defines goodput, never fails the run. */
  readonly goodputOnly: boolean;
}

const GOODPUT_ONLY = /^\s*goodput:\s*/;

const BARE_LATENCY = new RegExp(`^\\s*(${LOAD_LATENCY_FIGURES.join('|')})\\s*(?=[<>=])`);

/**
 * Parses one `--slo`. Scopes (`set:`, `mode:`) are refused (a load run has one set and mode), and
 * so are delta/ratio (an SLO has no baseline). UsageError naming the flag otherwise.
 */
export function parseSlo(text: string, flag = '--slo'): Slo {
  const origin = `${flag} "${text}"`;
  const goodputOnly = GOODPUT_ONLY.test(text);
  const condition = text.replace(GOODPUT_ONLY, '');
  const bare = BARE_LATENCY.exec(condition);
  const gate = parseLoadGate(bare ? condition.replace(BARE_LATENCY, `${bare[1]}.max `) : condition, origin);
  if (goodputOnly && !(LOAD_LATENCY_FIGURES as readonly string[]).includes(gate.figure))
    throw new UsageError(
      `${origin}: goodput: takes a latency SLO (${LOAD_LATENCY_FIGURES.join(', ')}); a rate SLO does not apply to single requests`,
    );
  if (gate.set !== null || gate.mode !== null)
    throw new UsageError(`${origin}: an SLO takes no set:/mode: scope (a load run has one set and one mode)`);
  if (gate.turn !== null)
    throw new UsageError(
      `${origin}: an SLO takes no turn: scope (it defines goodput for every request); gate a turn with --gate "turn:N …"`,
    );
  if (gate.against !== 'value')
    throw new UsageError(
      `${origin}: an SLO compares a value with a threshold; ${gate.against} needs a baseline (use compare)`,
    );
  return { gate: { ...gate, text }, perRequest: bare !== null, goodputOnly };
}

/** The SLOs that apply to single requests: every latency SLO. */
const latencySlos = (slos: readonly Slo[]) =>
  slos.filter((s) => (LOAD_LATENCY_FIGURES as readonly string[]).includes(s.gate.figure));

/**
 * A predicate "this ok request meets every latency SLO" for goodput. No latency SLO → every ok
 * request is good. Non-ok requests are never good.
 */
export function createGoodPredicate(slos: readonly Slo[]) {
  const checks = latencySlos(slos).map((s) => s.gate);
  return (record: Parameters<typeof recordLatency>[0] & { outcome: string }): boolean => {
    if (record.outcome !== 'ok') return false;
    return checks.every((gate) => {
      const value = recordLatency(record, gate.figure);
      return value !== null && value !== undefined && compareOp(value, gate.op, gate.threshold);
    });
  };
}

/** Checks each SLO on the summary's measured window. A figure with no value fails, saying so. */
export function evaluateSlos(slos: readonly Slo[], summary: LoadSummary): SloResult[] {
  return slos.map(({ gate, goodputOnly }) => {
    const figure = gateFigure(gate);
    const value = loadFigureValue(summary, gate.figure, gate.stat);
    const passed = value !== null && compareOp(value, gate.op, gate.threshold);
    const detail =
      value === null ? `no ${figure} in the measured window` : `${figure} = ${formatFigureValue(figure, value)}`;
    const only = goodputOnly ? ' (goodput only: does not fail the run)' : '';
    return {
      text: gate.text,
      figure,
      value,
      passed,
      op: gate.op,
      threshold: gate.threshold,
      goodput_only: goodputOnly,
      reason: `${gate.text} ${passed ? 'met' : 'broken'}: ${detail}${only}`,
    };
  });
}
