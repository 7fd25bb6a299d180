/**
 * @module viewer/ui/Questions
 * One row per question, one cell per set × mode (and model), coloured by pass or by any figure;
 * filters, search and sort kept in the URL; a virtualised list, so 20,000 rows stay smooth.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { CELL_STATES } from '../../reports/cell-state.js';
import type { ViewCell, ViewColumn, ViewData, ViewFigure } from '../view-data.js';
import { figureLabel, formatFigure, valueColour } from './figures.js';
import {
  clearedFilters,
  CONVERSATIONS_ONLY,
  filterQuestions,
  filtersFrom,
  paramsOf,
  searchTexts,
  visibleColumns,
  type Filters,
} from './filter.js';
import { ReviewMark } from './judge.js';
import { href } from './route.js';
import type { DataSource } from './api.js';
import { useVirtualizer } from './virtual.js';

const ROW_HEIGHT = 34;
/** The header row is taller: column labels wrap onto three lines. */
const HEAD_HEIGHT = 52;

function Select(props: {
  label: string;
  value: string;
  options: readonly (readonly [string, string])[];
  onChange: (v: string) => void;
}) {
  return (
    <label>
      {props.label}{' '}
      <select value={props.value} onChange={(e) => props.onChange((e.target as HTMLSelectElement).value)}>
        {props.options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}

function cellStyle(
  cell: ViewCell,
  figure: ViewFigure | undefined,
  index: number,
  range: [number, number],
): { style: Record<string, string>; text: string; title: string } {
  const state = CELL_STATES[cell.state];
  if (figure === undefined) {
    return {
      style: { background: state.colour, color: state.dark ? '#fff' : '#1b1f24' },
      text: state.glyph || '✓',
      title: state.label,
    };
  }
  const value = cell.values[index] ?? null;
  if (value === null)
    return { style: { background: '#f3f4f6', color: '#57606a' }, text: '–', title: `${figure.name}: N/A` };
  const { background, dark } = valueColour(figure, value, range[0], range[1]);
  return {
    style: { background, color: dark ? '#fff' : '#1b1f24' },
    text: formatFigure(figure, value),
    title: `${figure.name}: ${formatFigure(figure, value)} · ${state.label}`,
  };
}

/** What the server found for a search (served mode); viewer.html searches the rows' text instead. */
export interface SearchHits {
  readonly q: string;
  readonly ids: ReadonlySet<string>;
}

export function Questions(props: {
  data: ViewData;
  params: URLSearchParams;
  navigate: (hash: string) => void;
  source: DataSource;
  hits: SearchHits | null;
  onHits: (hits: SearchHits) => void;
}) {
  const { data } = props;
  const filters = filtersFrom(props.params);
  const [query, setQuery] = useState(filters.q);
  const set = (over: Partial<Filters>) => props.navigate(href('questions', paramsOf({ ...filters, ...over })));
  // Typing searches after a short pause, so each key press does not filter 20,000 rows. A pending
  // pause ends when the address's q changes (a link, Back, the filters cleared): its `set` holds the
  // filters of the render that armed it and would put them back.
  useEffect(() => {
    if (query === filters.q) return undefined;
    const timer = setTimeout(() => set({ q: query }), 150);
    return () => clearTimeout(timer);
  }, [query, filters.q]);
  useEffect(() => setQuery(filters.q), [filters.q]);

  const texts = useMemo(() => searchTexts(data), [data]);
  const [searchError, setSearchError] = useState<string | null>(null);
  useEffect(() => {
    const search = props.source.search;
    if (search === undefined || filters.q.trim() === '' || props.hits?.q === filters.q) return;
    let live = true;
    search(filters.q).then(
      (ids) => live && props.onHits({ q: filters.q, ids }),
      (error: Error) => live && setSearchError(error.message),
    );
    return () => {
      live = false;
    };
  }, [filters.q]);
  const matches = props.source.search && props.hits?.q === filters.q ? props.hits.ids : null;
  const searching = props.source.search !== undefined && filters.q.trim() !== '' && matches === null;
  const rows = useMemo(
    () => filterQuestions(data, filters, texts, matches),
    [data, texts, props.params.toString(), matches],
  );
  const columns = visibleColumns(data, filters);
  const colourIndex = data.cell_figures.findIndex((f) => f.name === filters.colour);
  const colourFigure = colourIndex === -1 ? undefined : data.cell_figures[colourIndex];
  const range = useMemo((): [number, number] => {
    if (colourIndex === -1) return [0, 1];
    let low = Infinity;
    let high = -Infinity;
    for (const q of data.questions) {
      for (const c of columns) {
        const v = q.cells[c.id]?.values[colourIndex];
        if (v === null || v === undefined) continue;
        if (v < low) low = v;
        if (v > high) high = v;
      }
    }
    return Number.isFinite(low) ? [low, high] : [0, 1];
  }, [data, colourIndex, filters.set, filters.mode]);

  // The choices of the filters: once per data, not on every scroll frame (the list re-renders then).
  const { sets, modes, categories, conversations, outcomes, figureOptions } = useMemo(() => {
    const outcomeSet = new Set<string>();
    for (const q of data.questions) for (const c of q.cells) for (const o of c?.outcomes ?? []) outcomeSet.add(o);
    return {
      sets: [...new Set(data.columns.map((c) => c.set))],
      modes: [...new Set(data.columns.map((c) => c.mode))],
      categories: [...new Set(data.questions.map((q) => q.category ?? ''))].filter(Boolean).sort(),
      conversations: [...new Set(data.questions.map((q) => q.conversation ?? ''))].filter(Boolean),
      outcomes: [...outcomeSet].sort(),
      figureOptions: data.cell_figures.map((f) => [f.name, figureLabel(f.name)] as const),
    };
  }, [data]);
  const headerSort = (columnId: number | '') => {
    const figure = colourFigure?.name ?? 'pass_rate';
    const same = filters.sort === figure && filters.sortcol === String(columnId);
    set({ sort: figure, sortcol: String(columnId), dir: same ? (filters.dir === 'desc' ? 'asc' : 'desc') : '' });
  };

  return (
    <div class="questions">
      <form class="toolbar" onSubmit={(e) => e.preventDefault()} role="search">
        <input
          type="search"
          aria-label="search questions and answers"
          placeholder="Search questions and answers…"
          value={query}
          onInput={(e) => setQuery((e.target as HTMLInputElement).value)}
        />
        {sets.length > 1 ? (
          <Select
            label="set"
            value={filters.set}
            options={[['', 'all'], ...sets.map((s) => [s, s] as const)]}
            onChange={(v) => set({ set: v })}
          />
        ) : null}
        {modes.length > 1 ? (
          <Select
            label="mode"
            value={filters.mode}
            options={[['', 'all'], ...modes.map((m) => [m, m] as const)]}
            onChange={(v) => set({ mode: v })}
          />
        ) : null}
        {categories.length > 0 ? (
          <Select
            label="category"
            value={filters.category}
            options={[['', 'all'], ...categories.map((c) => [c, c] as const)]}
            onChange={(v) => set({ category: v })}
          />
        ) : null}
        {conversations.length > 0 ? (
          <Select
            label="conversation"
            value={filters.conv}
            options={[
              ['', 'all'],
              [CONVERSATIONS_ONLY, 'any conversation'],
              ...conversations.map((c) => [c, c] as const),
            ]}
            onChange={(v) => set({ conv: v })}
          />
        ) : null}
        <Select
          label="outcome"
          value={filters.outcome}
          options={[['', 'any'], ...outcomes.map((o) => [o, o] as const)]}
          onChange={(v) => set({ outcome: v })}
        />
        <Select
          label="result"
          value={filters.result}
          options={[
            ['', 'any'],
            ['pass', 'passes everywhere'],
            ['fail', 'fails somewhere'],
          ]}
          onChange={(v) => set({ result: v as Filters['result'] })}
        />
        <Select
          label="review"
          value={filters.review}
          options={[
            ['', 'any'],
            ['reviewed', 'reviewed'],
            ['unreviewed', 'not reviewed'],
            ['pass', 'reviewed pass'],
            ['fail', 'reviewed fail'],
          ]}
          onChange={(v) => set({ review: v as Filters['review'] })}
        />
        <label>
          <input
            type="checkbox"
            checked={filters.differs}
            onChange={(e) => set({ differs: (e.target as HTMLInputElement).checked })}
          />{' '}
          differs between sets
        </label>
        {data.baseline ? (
          <label>
            <input
              type="checkbox"
              checked={filters.broken}
              onChange={(e) => set({ broken: (e.target as HTMLInputElement).checked })}
            />{' '}
            broken vs baseline
          </label>
        ) : null}
        <Select
          label="colour by"
          value={filters.colour}
          options={[['pass', 'pass / fail'], ...figureOptions]}
          onChange={(v) => set({ colour: v })}
        />
        <Select
          label="sort by"
          value={filters.sort}
          options={[['', 'question id'], ...figureOptions]}
          onChange={(v) => set({ sort: v, sortcol: '', dir: '' })}
        />
      </form>
      <p class="count" aria-live="polite">
        {searching ? 'searching the answers… ' : ''}
        {searchError ? `search failed: ${searchError} ` : ''}
        {rows.length === data.questions.length
          ? `${rows.length} questions`
          : `${rows.length} of ${data.questions.length} questions`}
        {filters.sort
          ? ` · sorted by ${filters.sort}${filters.sortcol ? ` in ${data.columns[Number(filters.sortcol)]?.label ?? ''}` : ' (mean over the columns shown)'}, ${filters.dir || 'worst first'}`
          : ''}
      </p>
      {rows.length === 0 && data.questions.length > 0 && !searching ? (
        <div class="empty-result" role="status">
          <p>No questions match these filters.</p>
          <button
            type="button"
            // The search box follows the address's q (the effect above): setting it here too would
            // arm a search with the old filters before the address changes.
            onClick={() => props.navigate(href('questions', paramsOf(clearedFilters(filters))))}
          >
            Clear the filters
          </button>
        </div>
      ) : null}
      <List
        data={data}
        rows={rows}
        columns={columns}
        colourFigure={colourFigure}
        colourIndex={colourIndex}
        range={range}
        onHeader={headerSort}
        resetKey={props.params.toString()}
      />
      <ul class="legend">
        {colourFigure === undefined ? (
          (['pass', 'partial', 'fail', 'error'] as const).map((k) => (
            <li key={k}>
              <span class="swatch" style={{ background: CELL_STATES[k].colour }} />{' '}
              {CELL_STATES[k].glyph ? `${CELL_STATES[k].glyph} ` : ''}
              {CELL_STATES[k].label}
            </li>
          ))
        ) : (
          <li>
            {colourFigure.name}: orange worse, blue better ({colourFigure.higher_is_better ? 'higher' : 'lower'} is
            better); – N/A
          </li>
        )}
        <li>
          <ReviewMark pass /> <ReviewMark pass={false} /> reviewed pass / fail (a person's verdict; ✓ is the pass
          rule's)
        </li>
        {data.baseline ? <li>▼ broken, ▲ fixed against the baseline</li> : null}
      </ul>
    </div>
  );
}

/**
 * The virtualised rows: a component of its own, so scrolling re-renders the rows in view and
 * nothing else (not the toolbar, not the filters).
 */
function List(props: {
  data: ViewData;
  rows: readonly number[];
  columns: readonly ViewColumn[];
  colourFigure: ViewFigure | undefined;
  colourIndex: number;
  range: [number, number];
  onHeader: (columnId: number) => void;
  /** Scrolls back to the top when it changes (new filters). */
  resetKey: string;
}) {
  const { data, rows, columns, colourFigure, colourIndex, range } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    paddingStart: HEAD_HEIGHT,
  });
  useEffect(() => virtual.scrollToOffset(0), [props.resetKey]);
  const width = `calc(var(--id-w) + var(--q-min) + ${columns.length} * var(--cell-w))`;
  return (
    <div class="list" ref={scroller} style={{ '--cols': String(columns.length) }}>
      <div class="list-inner" style={{ height: `${virtual.getTotalSize()}px`, width }}>
        <div class="row head">
          <span class="id">id</span>
          <span class="q">question</span>
          {columns.map((c) => (
            <button
              type="button"
              class="cell head-cell"
              key={c.id}
              title={`${c.label}: sort by ${colourFigure?.name ?? 'pass_rate'} in this column`}
              onClick={() => props.onHeader(c.id)}
            >
              {c.label}
            </button>
          ))}
        </div>
        {virtual.getVirtualItems().map((item) => {
          const q = data.questions[rows[item.index]!]!;
          return (
            <a
              class="row"
              key={q.id}
              href={href('question', {}, q.id)}
              data-question={q.id}
              style={{ transform: `translateY(${item.start}px)` }}
            >
              <span class="id">{q.id}</span>
              <span class="q" title={q.question}>
                {q.conversation !== null ? (
                  <span class="turn" title={`conversation ${q.conversation}, turn ${q.turn ?? '?'}`}>
                    {q.conversation} · {q.turn ?? '?'}
                  </span>
                ) : null}
                {q.question}
              </span>
              {columns.map((c) => {
                const cell = q.cells[c.id];
                if (!cell) return <span class="cell none" key={c.id} title="not run" />;
                const look = cellStyle(cell, colourFigure, colourIndex, range);
                const change =
                  cell.change === 'broken' || cell.change === 'both' ? ' ▼' : cell.change === 'fixed' ? ' ▲' : '';
                const title = `${c.label}: ${look.title}${cell.review ? ` · reviewed ${cell.review}` : ''}${cell.change ? ` · ${cell.change} vs baseline` : ''}`;
                return (
                  <span
                    class={`cell state-${cell.state}`}
                    key={c.id}
                    style={look.style}
                    title={title}
                    aria-label={title}
                  >
                    {look.text}
                    {cell.review === 'pass' || cell.review === 'fail' ? (
                      <ReviewMark pass={cell.review === 'pass'} />
                    ) : cell.review === 'mixed' ? (
                      ' ±'
                    ) : null}
                    {change}
                  </span>
                );
              })}
            </a>
          );
        })}
      </div>
    </div>
  );
}
