/**
 * @module reports/html/svg
 * The pieces every inline chart of report.html shares: escaping, the colour-blind-safe palette,
 * axes drawn from a d3 scale's own ticks, the legend and the accessible <figure> wrapper. Strings
 * only: the page must open offline with no script, so nothing here touches a DOM.
 */
import { replaceUnprintable } from '../format.js';

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text safe in HTML/SVG element content and in quoted attribute values. */
export function esc(text: string): string {
  return replaceUnprintable(text).replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/**
 * Okabe & Ito's palette (distinguishable with the common colour-vision deficiencies), yellow left
 * out for lines because it vanishes on white. Series past its length also get a dash pattern.
 */
export const SERIES_COLOURS = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#000000'] as const;
const DASHES = ['', '6 3', '2 3', '8 3 2 3'] as const;

export interface SeriesStyle {
  readonly colour: string;
  readonly dash: string;
}

/** Colour and dash of the i-th series: colours first, then the dash patterns over them again. */
export function seriesStyle(i: number): SeriesStyle {
  return {
    colour: SERIES_COLOURS[i % SERIES_COLOURS.length]!,
    dash: DASHES[Math.floor(i / SERIES_COLOURS.length) % DASHES.length]!,
  };
}

/** A coordinate rounded to 0.01 px: keeps the file small and stable across float noise. */
export const px = (value: number): number => Math.round(value * 100) / 100;

/** A numeric scale as d3-scale's linear scale offers it (what the axes need). */
export interface TickScale {
  (value: number): number;
  ticks(count?: number): number[];
  tickFormat(count?: number, specifier?: string): (d: number) => string;
  range(): number[];
}

/** Where an axis sits and how it is labelled. */
export interface AxisOptions {
  /** The position across the axis: y of a bottom axis, x of a left axis. */
  readonly at: number;
  readonly label: string;
  readonly ticks?: number;
  readonly format?: (d: number) => string;
  /** Length of grid lines drawn across the plot from each tick (0: none). */
  readonly grid?: number;
}

/** A bottom axis from the scale's ticks (the scale decides tick values and labels). */
export function axisBottom(scale: TickScale, options: AxisOptions): string {
  const ticks = scale.ticks(options.ticks ?? 6);
  const format = options.format ?? scale.tickFormat(options.ticks ?? 6);
  const [x0 = 0, x1 = 0] = scale.range();
  const marks = ticks.map((t) => {
    const x = px(scale(t));
    const grid = options.grid ? `<line class="grid" y1="0" y2="${-options.grid}"/>` : '';
    return `<g transform="translate(${x},0)">${grid}<line y2="5"/><text y="18" text-anchor="middle">${esc(format(t))}</text></g>`;
  });
  return `<g class="axis axis-x" transform="translate(0,${options.at})"><line x1="${x0}" x2="${x1}"/>${marks.join('')}<text class="axis-label" x="${(x0 + x1) / 2}" y="36" text-anchor="middle">${esc(options.label)}</text></g>`;
}

/** A left axis from the scale's ticks. */
export function axisLeft(scale: TickScale, options: AxisOptions): string {
  const ticks = scale.ticks(options.ticks ?? 5);
  const format = options.format ?? scale.tickFormat(options.ticks ?? 5);
  const [y0 = 0, y1 = 0] = scale.range();
  const marks = ticks.map((t) => {
    const y = px(scale(t));
    const grid = options.grid ? `<line class="grid" x1="0" x2="${options.grid}" y1="0" y2="0"/>` : '';
    return `<g transform="translate(0,${y})">${grid}<line x2="-5"/><text x="-8" dy="0.32em" text-anchor="end">${esc(format(t))}</text></g>`;
  });
  return `<g class="axis axis-y" transform="translate(${options.at},0)"><line y1="${y0}" y2="${y1}"/>${marks.join('')}<text class="axis-label" transform="translate(-44,${(y0 + y1) / 2}) rotate(-90)" text-anchor="middle">${esc(options.label)}</text></g>`;
}

export interface LegendEntry {
  readonly label: string;
  readonly colour: string;
  readonly dash?: string;
  /** 'line' for line series, 'box' for bars and cells. */
  readonly shape: 'line' | 'box';
}

/** A legend as HTML under the chart (wraps with the page width, unlike SVG text). */
export function legend(entries: readonly LegendEntry[]): string {
  const items = entries.map((e) => {
    const swatch =
      e.shape === 'line'
        ? `<svg width="26" height="10" aria-hidden="true"><line x1="1" x2="25" y1="5" y2="5" stroke="${e.colour}" stroke-width="3"${e.dash ? ` stroke-dasharray="${e.dash}"` : ''}/></svg>`
        : `<svg width="12" height="12" aria-hidden="true"><rect width="12" height="12" rx="2" fill="${e.colour}"/></svg>`;
    return `<li class="legend-item">${swatch}<span>${esc(e.label)}</span></li>`;
  });
  return `<ul class="legend">${items.join('')}</ul>`;
}

export interface FigureOptions {
  /** The chart's name for tests and styling: `data-chart` on the figure. */
  readonly chart: string;
  readonly caption: string;
  /** What a screen reader says instead of the drawing. */
  readonly label: string;
  readonly width: number;
  readonly height: number;
  readonly body: string;
  readonly after?: string;
  /** Drawn at its own size (up to the page's width) rather than filling its place: cells of a fixed size. */
  readonly natural?: boolean;
}

/** An accessible figure: an SVG with role="img" and an aria-label, its caption, and anything after it (legend, notes). */
export function figure(o: FigureOptions): string {
  return [
    `<figure class="chart" data-chart="${esc(o.chart)}">`,
    `<figcaption>${esc(o.caption)}</figcaption>`,
    `<svg${o.natural ? ' class="natural"' : ''} role="img" aria-label="${esc(o.label)}" viewBox="0 0 ${o.width} ${o.height}" width="${o.width}" height="${o.height}">${o.body}</svg>`,
    o.after ?? '',
    '</figure>',
  ].join('\n');
}

/** A figure for a chart with nothing to draw: says so instead of drawing empty axes. */
export function emptyFigure(chart: string, caption: string, why: string): string {
  return `<figure class="chart empty" data-chart="${esc(chart)}"><figcaption>${esc(caption)}</figcaption><p class="note">${esc(why)}</p></figure>`;
}

/** The longest a row label is drawn (the whole label stays in its <title>). */
export const ROW_LABEL_CHARS = 40;
/** A generous width of one 12 px character of the system font: a label must never be cut at the left edge. */
const ROW_CHAR_W = 7.2;

/**
 * The left margin that holds the longest row label (drawn right-aligned 8 px before the plot),
 * never under `min`. The SVG does not clip, but its box ends at 0: a label past it would be cut
 * where the chart is placed in a narrow cell, so the margin grows with the labels instead.
 */
export function rowLabelMargin(labels: readonly string[], min: number): number {
  const longest = Math.max(0, ...labels.map((l) => Array.from(trimLabel(l)).length));
  return Math.max(min, Math.ceil(longest * ROW_CHAR_W) + 16);
}

/** A row label as drawn: at most ROW_LABEL_CHARS characters, the whole of it in a <title>. */
export function rowLabelText(label: string): string {
  const shown = trimLabel(label);
  return shown === label ? esc(label) : `${esc(shown)}<title>${esc(label)}</title>`;
}

function trimLabel(label: string): string {
  const chars = Array.from(label);
  return chars.length <= ROW_LABEL_CHARS ? label : `${chars.slice(0, ROW_LABEL_CHARS - 1).join('')}…`;
}

/**
 * The right margin a bottom axis needs: half its widest tick label (labels are centred on their
 * tick and the last tick may sit at the plot's end), never under `min`. `scale` only needs its
 * domain here; its range is set afterwards with this margin.
 */
export function tickMargin(scale: Pick<TickScale, 'ticks' | 'tickFormat'>, min: number, count = 6, format?: (d: number) => string): number {
  const label = format ?? scale.tickFormat(count);
  const widest = Math.max(0, ...scale.ticks(count).map((t) => Array.from(label(t)).length));
  return Math.max(min, Math.ceil((widest * ROW_CHAR_W) / 2) + 4);
}
