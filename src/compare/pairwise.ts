/**
 * @module compare/pairwise
 * The comparison inside one eval of two or more sets: each set against the reference set (the
 * first, or `--reference SET`) on the same questions, with the machinery `compare` uses between
 * runs (paired bootstrap by question, the timing-uncertainty rule), and Benjamini–Hochberg over
 * every test of every pair together, so three sets do not get two free chances at "significant".
 * The verdict opens with at most three lines per pair (one per set × mode group, capped), e.g.
 * `fast vs accurate: pass rate +10 pts (not significant, n = 87 questions); citation recall
 * +0.130 [+0.070, +0.190] significant; TTFT p50 ×1.75 significant · no clear winner`.
 * A set is called better only on a significant change; otherwise there is no clear winner.
 */
import { UsageError } from '../errors.js';
import { formatFigureDelta, formatRatio } from '../figures/units.js';
import { compareRuns, controlFalseDiscoveries } from './compare.js';
import type { RunData } from './run-data.js';
import type { Mode } from '../records/record.js';
import type { BestMark } from '../verdict/index.js';
import type { Comparison, FigureDelta, GroupComparison } from './schema.js';

/** One set compared with the reference set. */
export interface SetPair {
  readonly reference: string;
  readonly other: string;
  readonly comparison: Comparison;
}

const MAX_LINES_PER_PAIR = 3;

/** The run's sets in order; the reference first. UsageError when `reference` names no set. */
export function pairOrder(
  sets: readonly string[],
  reference: string | undefined,
): { reference: string; others: string[] } | null {
  if (reference !== undefined && !sets.includes(reference))
    throw new UsageError(`--reference ${reference}: the run has no such set (its sets: ${sets.join(', ')})`);
  if (sets.length < 2) return null;
  const ref = reference ?? sets[0]!;
  return { reference: ref, others: sets.filter((s) => s !== ref) };
}

const only = (run: RunData, set: string): RunData => ({
  ...run,
  groups: run.groups.filter((g) => g.set === set),
  turns: new Map(),
});

/** Every other set against the reference, FDR over all pairs. [] for a run of one set. */
export function compareSets(
  run: RunData,
  options: { reference?: string | undefined; sets?: readonly string[]; seed?: number; resamples?: number } = {},
): SetPair[] {
  // The plan's set order when given (the records' order is the order requests finished in).
  const order = pairOrder(options.sets ?? run.summary.run.sets, options.reference);
  if (order === null) return [];
  const pairs = order.others.map((other): SetPair => ({
    reference: order.reference,
    other,
    comparison: compareRuns(only(run, order.reference), only(run, other), {
      seed: options.seed ?? 1,
      resamples: options.resamples,
      setMap: { [order.reference]: other },
    }),
  }));
  // One correction over every test of every pair; each comparison then counts its own discoveries.
  const fdr = controlFalseDiscoveries(pairs.flatMap((p) => p.comparison.groups));
  for (const { comparison } of pairs) {
    comparison.fdr = fdr;
    comparison.significant = { better: 0, worse: 0 };
    for (const f of comparison.groups.flatMap((g) => g.figures)) {
      if (f.significant && (f.direction === 'better' || f.direction === 'worse'))
        comparison.significant[f.direction] += 1;
    }
  }
  return pairs;
}

const LABELS: Readonly<Record<string, string>> = {
  pass_rate: 'pass rate',
  citation_recall: 'citation recall',
  correctness: 'correctness',
  answer_f1: 'answer F1',
  'ttft_ms.p50': 'TTFT p50',
  'total_ms.p50': 'total p50',
};

/** `pass rate +10 pts (not significant, n = 87 questions)`, `TTFT p50 ×1.75 significant`. */
function figureText(f: FigureDelta): string {
  const label = LABELS[f.figure] ?? f.figure;
  const n = f.n_paired === null ? `n = ${f.n_baseline} / ${f.n_current} requests` : `n = ${f.n_paired} questions`;
  const untested = f.enough_samples ? 'not significant' : 'too few to test';
  if (f.kind === 'latency') {
    const ratio = formatRatio(f.ratio);
    return f.significant ? `${label} ${ratio} significant` : `${label} ${ratio} (${untested}, ${n})`;
  }
  const delta = formatFigureDelta(f.figure, f.delta);
  if (!f.significant) return `${label} ${delta} (${untested}, ${n})`;
  const ci =
    f.ci === null ? '' : ` [${formatFigureDelta(f.figure, f.ci.low)}, ${formatFigureDelta(f.figure, f.ci.high)}]`;
  return `${label} ${delta}${ci} significant`;
}

/** The first of `names` the group has a change for. */
const pick = (g: GroupComparison, names: readonly string[]) =>
  names.map((n) => g.figures.find((f) => f.figure === n && f.delta !== null)).find((f) => f !== undefined);

/** Who is better in one group: only on significant changes, and only when they all point one way. */
export function winner(g: GroupComparison, reference: string, other: string): string {
  const sig = g.figures.filter((f) => f.significant && f.headline);
  const better = sig.filter((f) => f.direction === 'better').length;
  const worse = sig.filter((f) => f.direction === 'worse').length;
  if (better + worse === 0) return 'no clear winner';
  if (worse === 0) return `best: ${other} (${better} significantly better)`;
  if (better === 0) return `best: ${reference} (${other} ${worse} significantly worse)`;
  return `no clear winner (${other}: ${better} significantly better, ${worse} worse)`;
}

/** At most three lines per pair, one per group, for the verdict. */
export function pairLines(pairs: readonly SetPair[]): string[] {
  return pairs.flatMap(({ reference, other, comparison }) => {
    const groups = comparison.groups;
    const lines = groups.slice(0, MAX_LINES_PER_PAIR).map((g) => {
      const where =
        groups.length > 1
          ? ` (${g.mode}${g.model_index === null ? '' : ` · ${g.model_name ?? `model ${g.model_index}`}`})`
          : '';
      const figures = [
        pick(g, ['pass_rate']),
        pick(g, ['citation_recall', 'correctness', 'answer_f1']),
        pick(g, ['ttft_ms.p50', 'total_ms.p50']),
      ]
        .filter((f): f is FigureDelta => f !== undefined)
        .map(figureText);
      return `${other} vs ${reference}${where}: ${figures.join('; ') || 'no figure in common'} · ${winner(g, reference, other)}`;
    });
    if (groups.length > MAX_LINES_PER_PAIR)
      lines[MAX_LINES_PER_PAIR - 1] += ` (and ${groups.length - MAX_LINES_PER_PAIR} more groups)`;
    return lines;
  });
}

/** `stream|null|pass_rate`: one figure of one group, whichever pair it comes from. */
const markKey = (g: Pick<GroupComparison, 'mode' | 'model_index'>, figure: string) =>
  `${g.mode}|${g.model_index ?? ''}|${figure}`;

/**
 * The tables' "best" marks (report.md, report.html, the terminal, the viewer), from the same tests
 * as the pair lines: per figure and group, a set is best only where the paired comparison says so
 * after Benjamini–Hochberg over every test. Two sets: the significantly better one. More: the
 * reference when every other set is significantly worse than it; another set when it is
 * significantly better than the reference and every further set significantly worse (so it beats
 * each one). Anything else (a change not significant, a figure some pair lacks): no mark, no
 * clear winner. Figures with too few values are never significant, so never marked.
 */
export function bestMarks(pairs: readonly SetPair[]): BestMark[] {
  if (pairs.length === 0) return [];
  const reference = pairs[0]!.reference;
  const tested = new Map<
    string,
    { mode: Mode; model_index: number | null; figure: string; directions: Map<string, 'better' | 'worse' | null> }
  >();
  for (const { other, comparison } of pairs) {
    for (const g of comparison.groups) {
      for (const f of g.figures) {
        const key = markKey(g, f.figure);
        const entry = tested.get(key) ?? {
          mode: g.mode,
          model_index: g.model_index,
          figure: f.figure,
          directions: new Map(),
        };
        entry.directions.set(
          other,
          f.significant && (f.direction === 'better' || f.direction === 'worse') ? f.direction : null,
        );
        tested.set(key, entry);
      }
    }
  }
  return [...tested.values()].flatMap(({ mode, model_index, figure, directions }): BestMark[] => {
    if (directions.size !== pairs.length) return [];
    const said = [...directions.entries()];
    const better = said.filter(([, d]) => d === 'better');
    const worse = said.filter(([, d]) => d === 'worse');
    if (worse.length === said.length) return [{ figure, mode, model_index, set: reference }];
    if (better.length === 1 && better.length + worse.length === said.length)
      return [{ figure, mode, model_index, set: better[0]![0] }];
    return [];
  });
}
