/**
 * @module compare/compare
 * Matches a current run with its baseline — sets by name (or --map old=new), modes, models of a
 * multi-model set by model_index, questions by question_id — and compares every matched group.
 * Groups and questions found on one side only are listed in the result, never dropped silently.
 * Pure and deterministic: the same runs and seed give the same Comparison, to the bit.
 */
import { modelChanges } from './model-changes.js';
import { InputError, UsageError } from '../errors.js';
import { MIN_MEAN_SAMPLES } from '../figures/min-samples.js';
import { naturalCompare } from '../reports/format.js';
import { DEFAULT_RESAMPLES, signTestP, TAIL } from './bootstrap.js';
import { benjaminiHochberg, FDR_Q } from './fdr.js';
import { figureDeltas } from './figure-deltas.js';
import { questionValue } from '../metrics/question-value.js';
import { questionChanges } from './question-changes.js';
import type { GroupData, RunData } from './run-data.js';
import { COMPARISON_VERSION, type Comparison, type GroupComparison, type GroupRef, type SignTest } from './schema.js';

export interface CompareOptions {
  /** Seeds every bootstrap; default 1. */
  seed?: number;
  /** Bootstrap resamples per interval; default DEFAULT_RESAMPLES (2000). */
  resamples?: number;
  /** Baseline set name → current set name (from parseSetMap). */
  setMap?: Readonly<Record<string, string>>;
}

/**
 * Parses `--map old=new` flags into a baseline → current map. Each side of `=` must be a non-empty
 * name; a baseline name mapped twice, or two names mapped onto one, is a UsageError (exit 2).
 */
export function parseSetMap(flags: readonly string[]): Record<string, string> {
  const map: Record<string, string> = {};
  const targets = new Set<string>();
  for (const flag of flags) {
    const match = /^([^=\s]+)=([^=\s]+)$/.exec(flag.trim());
    if (match === null)
      throw new UsageError(`--map "${flag}": expected OLD=NEW (the baseline's set name = the current run's)`);
    const [, from, to] = match as unknown as [string, string, string];
    if (from in map) throw new UsageError(`--map "${flag}": set "${from}" is already mapped to "${map[from]}"`);
    if (targets.has(to)) throw new UsageError(`--map "${flag}": two baseline sets are mapped onto "${to}"`);
    map[from] = to;
    targets.add(to);
  }
  return map;
}

/** "set (mode)" or "set · model (mode)"; the baseline's name first when --map renamed the set. */
export function groupLabel(
  g: Pick<GroupData, 'set' | 'mode' | 'model_index' | 'model_name'>,
  baselineSet?: string,
): string {
  const model = g.model_index === null ? '' : ` · ${g.model_name ?? `model ${g.model_index}`}`;
  const renamed = baselineSet !== undefined && baselineSet !== g.set ? `${baselineSet}→` : '';
  return `${renamed}${g.set}${model} (${g.mode})`;
}

const ref = (g: GroupData): GroupRef => ({
  set: g.set,
  mode: g.mode,
  model_index: g.model_index,
  model_name: g.model_name,
  label: groupLabel(g),
});

function checkMap(map: Readonly<Record<string, string>>, baseline: RunData, current: RunData): void {
  for (const [from, to] of Object.entries(map)) {
    if (!baseline.summary.run.sets.includes(from)) {
      throw new UsageError(
        `--map ${from}=${to}: the baseline has no set "${from}" (its sets: ${baseline.summary.run.sets.join(', ') || 'none'})`,
      );
    }
    if (!current.summary.run.sets.includes(to)) {
      throw new UsageError(
        `--map ${from}=${to}: the current run has no set "${to}" (its sets: ${current.summary.run.sets.join(', ') || 'none'})`,
      );
    }
  }
}

/** Pass shares per paired question: went down (worse), up (better), or stayed. */
function passChanges(b: GroupData, c: GroupData): SignTest {
  let worse = 0;
  let better = 0;
  let unchanged = 0;
  for (const [id, cq] of c.questions) {
    const bq = b.questions.get(id);
    if (bq === undefined) continue;
    const diff = (questionValue(cq, 'pass_rate') ?? 0) - (questionValue(bq, 'pass_rate') ?? 0);
    if (diff < 0) worse += 1;
    else if (diff > 0) better += 1;
    else unchanged += 1;
  }
  return { worse, better, unchanged, p_value: signTestP(worse, better) };
}

function runSide(run: RunData): Comparison['baseline'] {
  return {
    source: run.source,
    requests: run.summary.run.requests,
    questions: run.summary.run.questions,
    sets: [...run.summary.run.sets],
    repeats: Math.max(0, ...run.repeats.map((r) => r.repeats)),
    torn_lines: run.torn_lines,
  };
}

/**
 * Compares `current` with `baseline`. Throws UsageError when --map names a set a run does not have,
 * and InputError (exit 2) when the runs have no group in common: a comparison of nothing would
 * read "no significant change".
 */
export function compareRuns(baseline: RunData, current: RunData, options: CompareOptions = {}): Comparison {
  const seed = options.seed ?? 1;
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const setMap = { ...(options.setMap ?? {}) };
  checkMap(setMap, baseline, current);
  const toBaseline = new Map(Object.entries(setMap).map(([from, to]) => [to, from]));
  const mappedAway = new Set(Object.keys(setMap));
  const baselineSetOf = (set: string) => toBaseline.get(set) ?? (mappedAway.has(set) ? undefined : set);

  const repeats = Math.max(runSide(baseline).repeats, runSide(current).repeats) > 1;
  const matchedBaseline = new Set<GroupData>();
  const groups: GroupComparison[] = [];
  const unmatchedCurrent: GroupRef[] = [];
  for (const c of current.groups) {
    const baselineSet = baselineSetOf(c.set);
    const b = baseline.groups.find(
      (g) => g.set === baselineSet && g.mode === c.mode && g.model_index === c.model_index,
    );
    if (b === undefined || baselineSet === undefined) {
      unmatchedCurrent.push(ref(c));
      continue;
    }
    matchedBaseline.add(b);
    const checks = [...new Set([...baseline.check_names, ...current.check_names])].sort();
    const figures = figureDeltas(
      { run: baseline, key: b, data: b },
      { run: current, key: c, data: c },
      { seed, resamples, repeats, checks },
    );
    const { broken, fixed } = questionChanges(b.questions, c.questions);
    groups.push({
      ...ref(c),
      label: groupLabel(c, baselineSet),
      baseline_set: baselineSet,
      questions: {
        paired: [...c.questions.keys()].filter((id) => b.questions.has(id)).length,
        baseline_only: [...b.questions.keys()].filter((id) => !c.questions.has(id)).sort(naturalCompare),
        current_only: [...c.questions.keys()].filter((id) => !b.questions.has(id)).sort(naturalCompare),
      },
      figures,
      pass_changes: passChanges(b, c),
      broken,
      fixed,
    });
  }
  if (groups.length === 0) throw noGroupInCommon(baseline, current);
  const fdr = controlFalseDiscoveries(groups);
  const significant = { better: 0, worse: 0 };
  for (const g of groups) {
    for (const f of g.figures)
      if (f.significant && (f.direction === 'better' || f.direction === 'worse')) significant[f.direction] += 1;
  }
  return {
    comparison_version: COMPARISON_VERSION,
    seed,
    resamples,
    confidence: 1 - 2 * TAIL,
    min_samples: MIN_MEAN_SAMPLES,
    fdr,
    set_map: setMap,
    baseline: runSide(baseline),
    current: runSide(current),
    unmatched: { baseline: baseline.groups.filter((g) => !matchedBaseline.has(g)).map(ref), current: unmatchedCurrent },
    groups,
    significant,
    model_changes: modelChanges(baseline.summary.models, current.summary.models, setMap),
  };
}

/**
 * Decides the list of significant changes: Benjamini–Hochberg at FDR_Q over every figure × group
 * that was tested (had a p-value), in place. Exported for the pairs of one eval's sets
 * (compare/pairwise), whose tests are all corrected together. A figure is significant when its adjusted p-value is
 * at most q and its own interval excludes no change too, so a starred row never shows an interval
 * across 0 (a subset of the discoveries keeps the false discovery rate under q).
 */
export function controlFalseDiscoveries(groups: readonly GroupComparison[]): Comparison['fdr'] {
  const tested = groups.flatMap((g) => g.figures.filter((f) => f.p_value !== null));
  const adjusted = benjaminiHochberg(tested.map((f) => f.p_value!));
  let discoveries = 0;
  tested.forEach((f, i) => {
    f.q_value = adjusted[i]!;
    f.significant = f.q_value <= FDR_Q && f.significant_alone;
    if (f.significant) discoveries += 1;
  });
  return { method: 'benjamini-hochberg', q: FDR_Q, tests: tested.length, discoveries };
}

/** Exit 2 naming both sides' groups, and --map when a set looks renamed. */
function noGroupInCommon(baseline: RunData, current: RunData): InputError {
  const list = (run: RunData) => run.groups.map((g) => groupLabel(g)).join(', ') || 'no records';
  return new InputError(
    [
      `nothing to compare: the runs have no set × mode in common (baseline ${baseline.source}: ${list(baseline)}; current ${current.source}: ${list(current)})`,
    ],
    { hint: 'if a set was renamed, match it with --map OLD=NEW' },
  );
}
