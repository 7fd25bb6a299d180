/**
 * @module figures/grammar
 * The gate grammar (docs/ci.md):
 *
 *   [set:NAME] [mode:stream|full] [turn:N] FIGURE[.STAT] [delta|ratio] OP NUMBER [significant]
 *
 * `turn:N` checks the figure on the N-th turns of the run's conversations only (the run seen at
 * that depth: its summary's `by_turn`, compared with the baseline's same turn).
 * FIGURE is any numeric score (answer quality's answer_f1, rouge_l, correctness, groundedness,
 * relevance and rubric among them; a user check's name when the caller passes it as an extra
 * figure), a rate (pass_rate, ok_rate, error_rate, rate_limited_rate), a
 * repeat figure (pass_at_n, pass_all_n, flaky_rate) or a latency figure, which needs STAT (p50 p90
 * p95 p99 p99_9 mean max). OP is one of >= <= > < ==. `delta` compares current − baseline,
 * `ratio` current / baseline; `significant` (only with them) lets the gate fail only on a
 * significant change. Operators need no spaces around them (`ttfp_ms.p95<=2000`). Every mistake
 * is a UsageError naming the gate and the problem, with a "did you mean" where one is close.
 */
import { z } from 'zod';
import { UsageError } from '../errors.js';
import { ModeSchema, type Mode } from '../records/record.js';
import {
  FIGURE_NAMES,
  LATENCY_STATS,
  TURN_SCOPE,
  currentFigureName,
  figureKind,
  type FigureKind,
  type LatencyStat,
} from './catalogue.js';

export const GATE_OPERATORS = ['>=', '<=', '>', '<', '=='] as const;
export const GateOperatorSchema = z.enum(GATE_OPERATORS);
export type GateOperator = z.infer<typeof GateOperatorSchema>;
/** What the threshold is compared with: the current value, current − baseline, or current / baseline. */
export const GateAgainstSchema = z.enum(['value', 'delta', 'ratio']);
export type GateAgainst = z.infer<typeof GateAgainstSchema>;

export const GateSchema = z.object({
  /** The gate as written, for messages. */
  text: z.string(),
  set: z.string().nullable(),
  mode: ModeSchema.nullable(),
  /** Only the conversation turns of this number; null: every request. */
  turn: z.number().int().positive().nullable().default(null),
  /** Base figure name (`ttfp_ms`, `citation_recall`). */
  figure: z.string(),
  stat: z.enum(LATENCY_STATS).nullable(),
  against: GateAgainstSchema,
  op: GateOperatorSchema,
  threshold: z.number(),
  significant: z.boolean(),
});
export type Gate = z.infer<typeof GateSchema>;

/** `ttfp_ms.p95` or `citation_recall`. */
export const gateFigure = (gate: Pick<Gate, 'figure' | 'stat'>): string =>
  gate.stat === null ? gate.figure : `${gate.figure}.${gate.stat}`;

/** The gate without its scope, normalised: `ttfp_ms.p95 ratio <= 1.2 significant`. */
export function describeGate(gate: Gate): string {
  const against = gate.against === 'value' ? '' : ` ${gate.against}`;
  return `${gateFigure(gate)}${against} ${gate.op} ${gate.threshold}${gate.significant ? ' significant' : ''}`;
}

/** Edit distance, for "did you mean". */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const row = [i];
    for (let j = 1; j <= b.length; j += 1) {
      row[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (row[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = row;
  }
  return previous[b.length] ?? 0;
}

/** The closest candidate within a third of the word's length (at least 1, at most 3 edits). */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  const limit = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    const d = distance(word.toLowerCase(), candidate);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

const didYouMean = (word: string, candidates: readonly string[]) => {
  const hit = closest(word, candidates);
  return hit === undefined ? '' : ` (did you mean ${hit}?)`;
};

const WRONG_OPERATORS: Record<string, string> = { '=': '==', '=>': '>=', '=<': '<=', '!=': '', '<>': '' };
const OPERATOR_PATTERN = /(>=|<=|==|!=|=>|=<|<>|>|<|=)/g;
const NUMBER_PATTERN = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** Figures some runs have besides the common catalogue (a load run's `response_ms`, `goodput`), by kind. */
export type ExtraFigures = Readonly<Record<string, FigureKind>>;

/**
 * Parses one gate. `origin` names where it came from in messages (default `--gate "TEXT"`).
 * `extraFigures` adds figures to the catalogue (load gates and SLOs pass the load figures).
 * Throws UsageError `ORIGIN: PROBLEM` on the first mistake.
 */
export function parseGate(text: string, origin = `--gate "${text}"`, extraFigures: ExtraFigures = {}): Gate {
  const fail = (problem: string): never => {
    throw new UsageError(`${origin}: ${problem}`, {
      hint: 'gate form: [set:NAME] [mode:stream|full] [turn:N] FIGURE[.STAT] [delta|ratio] OP NUMBER [significant]; see docs/ci.md',
    });
  };
  const tokens = text
    .replace(OPERATOR_PATTERN, ' $1 ')
    .trim()
    .split(/\s+/)
    .filter((t) => t !== '');
  if (tokens.length === 0) fail('empty gate');
  let i = 0;
  let set: string | null = null;
  let mode: Mode | null = null;
  let turn: number | null = null;
  for (let token = tokens[i]; token !== undefined && /^[a-z_]+:/i.test(token); token = tokens[++i]) {
    const [scope, ...rest] = token.split(':');
    const name = rest.join(':');
    if (scope === 'set') {
      if (set !== null) fail(`two set: scopes ("set:${set}" and "${token}"); write one gate per set`);
      if (name === '') fail('set: needs a name (set:NAME)');
      set = name;
    } else if (scope === 'mode') {
      if (mode !== null) fail(`two mode: scopes ("mode:${mode}" and "${token}")`);
      const parsed = ModeSchema.safeParse(name);
      if (!parsed.success) fail(`unknown mode "${name}" (mode:stream or mode:full)`);
      mode = parsed.data ?? null;
    } else if (scope === TURN_SCOPE) {
      if (turn !== null) fail(`two turn: scopes ("turn:${turn}" and "${token}")`);
      if (!/^[1-9]\d*$/.test(name)) fail(`turn:${name} is not a turn number (turn:1, turn:2, …)`);
      turn = Number(name);
    } else
      fail(
        `unknown scope "${token}" (set:NAME, mode:stream|full or turn:N)${didYouMean(scope ?? '', ['set', 'mode', TURN_SCOPE])}`,
      );
  }
  const figureToken = tokens[i++];
  if (figureToken === undefined) return fail('missing figure after the scope');
  if (figureToken in WRONG_OPERATORS || (GATE_OPERATORS as readonly string[]).includes(figureToken))
    fail(`missing figure before "${figureToken}"`);
  // An old name (tpot_ms) reads as the figure it became (figures/catalogue FIGURE_ALIASES).
  const [figure = '', statText, ...extra] = currentFigureName(figureToken).split('.');
  const kind = figureKind(figure) ?? (Object.hasOwn(extraFigures, figure) ? extraFigures[figure] : undefined);
  if (kind === undefined)
    fail(`unknown figure "${figure}"${didYouMean(figure, [...FIGURE_NAMES, ...Object.keys(extraFigures)])}`);
  if (extra.length > 0) fail(`"${figureToken}": one statistic at most (${figure}.STAT)`);
  let stat: LatencyStat | null = null;
  if (kind === 'latency') {
    if (statText === undefined || statText === '')
      fail(`${figure} needs a statistic: ${figure}.p95 (one of ${LATENCY_STATS.join(' ')})`);
    if (!(LATENCY_STATS as readonly string[]).includes(statText ?? '')) {
      fail(
        `unknown statistic "${statText}" of ${figure} (one of ${LATENCY_STATS.join(' ')})${didYouMean(statText ?? '', LATENCY_STATS)}`,
      );
    }
    stat = statText as LatencyStat;
  } else if (statText !== undefined) fail(`${figure} takes no statistic (".${statText}"); only latency figures do`);

  let against: GateAgainst = 'value';
  if (tokens[i] === 'delta' || tokens[i] === 'ratio') against = tokens[i++] as GateAgainst;
  const opToken = tokens[i++];
  if (opToken === undefined) return fail(`missing operator after ${figureToken} (one of ${GATE_OPERATORS.join(' ')})`);
  if (!(GATE_OPERATORS as readonly string[]).includes(opToken)) {
    const fix = WRONG_OPERATORS[opToken];
    if (fix !== undefined)
      fail(`unknown operator "${opToken}"${fix ? ` (did you mean ${fix}?)` : ` (one of ${GATE_OPERATORS.join(' ')})`}`);
    fail(
      `expected an operator (${GATE_OPERATORS.join(' ')}) or delta/ratio after ${figureToken}, found "${opToken}"${didYouMean(opToken, ['delta', 'ratio'])}`,
    );
  }
  const numberToken = tokens[i++];
  if (numberToken === undefined) return fail(`missing number after "${opToken}"`);
  if (!NUMBER_PATTERN.test(numberToken)) {
    const percent = /^([+-]?[\d.]+)%$/.exec(numberToken);
    fail(
      `"${numberToken}" is not a number${percent ? ` (write shares as fractions: ${Number(percent[1]) / 100})` : ''}`,
    );
  }
  let significant = false;
  if (tokens[i] === 'significant') {
    significant = true;
    i += 1;
    if (against === 'value') fail('"significant" needs delta or ratio: it qualifies a change against the baseline');
  }
  if (i < tokens.length)
    fail(`unexpected "${tokens[i]}" after the number${didYouMean(tokens[i] ?? '', ['significant'])}`);
  return {
    text,
    set,
    mode,
    turn,
    figure,
    stat,
    against,
    op: opToken as GateOperator,
    threshold: Number(numberToken),
    significant,
  };
}

/** Whether `value OP threshold` holds. */
export function compareOp(value: number, op: GateOperator, threshold: number): boolean {
  switch (op) {
    case '>=':
      return value >= threshold;
    case '<=':
      return value <= threshold;
    case '>':
      return value > threshold;
    case '<':
      return value < threshold;
    case '==':
      return value === threshold;
  }
}
