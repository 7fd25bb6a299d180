/**
 * @module viewer/ui/filter
 * The questions list's filters, search and sort, kept in the URL's hash. Pure, so they are unit
 * tested without a browser and cost one pass over the rows however many there are.
 */
import { naturalCompare } from '../../reports/format.js';
import type { ViewColumn, ViewData, ViewQuestion } from '../view-data.js';

export interface Filters {
  /** Search words: every one must appear in the id, the question or an answer (case-insensitive). */
  readonly q: string;
  readonly set: string;
  readonly mode: string;
  readonly category: string;
  /** A conversation's id (its turns only), CONVERSATIONS_ONLY (every conversation turn), or '' (everything). */
  readonly conv: string;
  /** An outcome some try in view had. */
  readonly outcome: string;
  /** 'pass': every cell in view passed; 'fail': some cell in view did not. */
  readonly result: '' | 'pass' | 'fail';
  /** Only questions whose cells in view differ (pass in one set, fail in another). */
  readonly differs: boolean;
  /** Only questions broken against the baseline in a column in view. */
  readonly broken: boolean;
  readonly review: '' | 'reviewed' | 'unreviewed' | 'pass' | 'fail';
  /** 'pass' or a per-question figure's name. */
  readonly colour: string;
  /** '' (question id) or a per-question figure's name. */
  readonly sort: string;
  /** Sort by this column's value; '' by the mean over the columns in view. */
  readonly sortcol: string;
  readonly dir: '' | 'asc' | 'desc';
}

/** The conversation filter's value for "every turn of any conversation". */
export const CONVERSATIONS_ONLY = '*';

const RESULTS = ['', 'pass', 'fail'] as const;
const REVIEWS = ['', 'reviewed', 'unreviewed', 'pass', 'fail'] as const;
const pick = <T extends string>(value: string | null, allowed: readonly T[]): T => {
  const v = value ?? '';
  return (allowed as readonly string[]).includes(v) ? (v as T) : allowed[0]!;
};

export function filtersFrom(params: URLSearchParams): Filters {
  return {
    q: params.get('q') ?? '',
    set: params.get('set') ?? '',
    mode: params.get('mode') ?? '',
    category: params.get('category') ?? '',
    conv: params.get('conv') ?? '',
    outcome: params.get('outcome') ?? '',
    result: pick(params.get('result'), RESULTS),
    differs: params.get('differs') === '1',
    broken: params.get('broken') === '1',
    review: pick(params.get('review'), REVIEWS),
    colour: params.get('colour') ?? 'pass',
    sort: params.get('sort') ?? '',
    sortcol: params.get('sortcol') ?? '',
    dir: pick(params.get('dir'), ['', 'asc', 'desc'] as const),
  };
}

/** The hash parameters of filters (defaults left out). */
export function paramsOf(f: Filters): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(f)) {
    if (v === '' || v === false || (k === 'colour' && v === 'pass')) continue;
    out[k] = v === true ? '1' : String(v);
  }
  return out;
}

/** The filters cleared (search included): every question shown again, in the same colouring and order. */
export function clearedFilters(f: Filters): Filters {
  const none = filtersFrom(new URLSearchParams());
  return { ...none, colour: f.colour, sort: f.sort, sortcol: f.sortcol, dir: f.dir };
}

/** The columns the filters keep (by set and mode). */
export function visibleColumns(data: ViewData, f: Filters): ViewColumn[] {
  return data.columns.filter((c) => (f.set === '' || c.set === f.set) && (f.mode === '' || c.mode === f.mode));
}

/** Lower-cased text searched per question: id, question, every answer kept. Built once per data. */
export function searchTexts(data: ViewData): string[] {
  return data.questions.map((q) => [q.id, q.question, ...q.cells.map((c) => c?.text ?? '')].join('\n').toLowerCase());
}

/**
 * Indexes of the questions the filters keep, in the order asked for. The search words are looked
 * for in `texts` (viewer.html), or `matches` holds the ids the server found for them.
 */
export function filterQuestions(
  data: ViewData,
  f: Filters,
  texts: readonly string[],
  matches?: ReadonlySet<string> | null,
): number[] {
  const columns = visibleColumns(data, f).map((c) => c.id);
  const words = f.q.toLowerCase().split(/\s+/).filter(Boolean);
  const keep: number[] = [];
  data.questions.forEach((q, i) => {
    const cells = columns.flatMap((c) => (q.cells[c] ? [q.cells[c]!] : []));
    if (cells.length === 0) return;
    if (f.category !== '' && (q.category ?? '') !== f.category) return;
    if (f.conv === CONVERSATIONS_ONLY ? q.conversation === null : f.conv !== '' && q.conversation !== f.conv) return;
    if (f.outcome !== '' && !cells.some((c) => c.outcomes.includes(f.outcome as never))) return;
    if (f.result === 'pass' && !cells.every((c) => c.state === 'pass')) return;
    if (f.result === 'fail' && cells.every((c) => c.state === 'pass')) return;
    if (f.differs && new Set(cells.map((c) => c.state)).size < 2) return;
    if (f.broken && !cells.some((c) => c.change === 'broken' || c.change === 'both')) return;
    if (f.review === 'reviewed' && !cells.some((c) => c.review !== null)) return;
    if (f.review === 'unreviewed' && cells.some((c) => c.review !== null)) return;
    if (
      (f.review === 'pass' || f.review === 'fail') &&
      !cells.some((c) => c.review === f.review || c.review === 'mixed')
    )
      return;
    if (words.length > 0) {
      if (matches) {
        if (!matches.has(q.id)) return;
      } else {
        const text = texts[i] ?? '';
        if (!words.every((w) => text.includes(w))) return;
      }
    }
    keep.push(i);
  });
  return sortQuestions(data, f, keep, columns);
}

/** The value a row is sorted by: its column's (sortcol), else the mean over the columns in view. */
export function sortValue(
  q: ViewQuestion,
  figureIndex: number,
  columns: readonly number[],
  sortcol: string,
): number | null {
  const values = (sortcol === '' ? columns : [Number(sortcol)]).flatMap((c) => {
    const v = q.cells[c]?.values[figureIndex];
    return v === null || v === undefined ? [] : [v];
  });
  return values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;
}

/** By question id; or by a figure, worst first unless `dir` says otherwise, missing values last. */
function sortQuestions(data: ViewData, f: Filters, keep: number[], columns: readonly number[]): number[] {
  const figureIndex = data.cell_figures.findIndex((x) => x.name === f.sort);
  if (figureIndex === -1) return f.dir === 'desc' ? keep.reverse() : keep;
  const figure = data.cell_figures[figureIndex]!;
  const ascending = f.dir === '' ? figure.higher_is_better : f.dir === 'asc';
  const value = new Map(keep.map((i) => [i, sortValue(data.questions[i]!, figureIndex, columns, f.sortcol)]));
  return [...keep].sort((a, b) => {
    const va = value.get(a) ?? null;
    const vb = value.get(b) ?? null;
    if (va === null || vb === null)
      return va === vb ? naturalCompare(data.questions[a]!.id, data.questions[b]!.id) : va === null ? 1 : -1;
    return (ascending ? va - vb : vb - va) || naturalCompare(data.questions[a]!.id, data.questions[b]!.id);
  });
}
