/**
 * @module reports/load/time-charts
 * The charts of a load run over time, one point per second of timeline.csv: outcomes stacked
 * (ok, 429, errors) with the offered and sent rates drawn over them, latency percentiles, and
 * requests in flight. Warm-up and cool-down are shaded so the measured window stands out. Inline
 * SVG from d3-scale / d3-shape with the report's shared axes, legend and figure wrapper.
 */
import { scaleLinear } from 'd3-scale';
import { area, line, stack } from 'd3-shape';
import type { TimelineRow } from '../../records/load-summary.js';
import { OUTCOME_COLOURS } from '../html/outcomes-chart.js';
import { axisBottom, axisLeft, emptyFigure, esc, figure, legend, px, seriesStyle, type TickScale } from '../html/svg.js';

const WIDTH = 720;
const HEIGHT = 280;
const M = { top: 12, right: 20, bottom: 48, left: 64 };

/** One line of a chart: a value per timeline row (null → a gap). */
export interface TimeSeries {
  readonly key: string;
  readonly label: string;
  readonly value: (row: TimelineRow) => number | null;
  /** Overrides the palette's i-th colour. */
  readonly colour?: string;
}

const styleOf = (s: TimeSeries, i: number) => (s.colour === undefined ? seriesStyle(i) : { colour: s.colour, dash: '' });

interface Frame {
  x: TickScale;
  y: TickScale;
  axes: string;
  shading: string;
}

/** Scales, axes and the warm-up / cool-down shading of a chart of `rows` up to `maxY`. */
function frame(rows: readonly TimelineRow[], maxY: number, yLabel: string): Frame {
  const seconds = Math.max(1, rows.length);
  const x = scaleLinear().domain([0, seconds]).range([M.left, WIDTH - M.right]);
  const y = scaleLinear().domain([0, maxY > 0 ? maxY : 1]).nice().range([HEIGHT - M.bottom, M.top]);
  const shading = rows
    .filter((r) => r.window !== 'measured')
    .map((r) => `<rect class="window-shade" data-window="${r.window}" x="${px(x(r.second))}" y="${M.top}" width="${px(x(r.second + 1) - x(r.second))}" height="${HEIGHT - M.bottom - M.top}" fill="#f3f4f6"/>`)
    .join('');
  const axes = [
    axisBottom(x, { at: HEIGHT - M.bottom, label: 'seconds since start' }),
    axisLeft(y, { at: M.left, label: yLabel, grid: WIDTH - M.left - M.right }),
  ].join('');
  return { x, y, axes, shading };
}

/** Lines drawn through the middle of each second; a null value breaks the line. */
function lines(rows: readonly TimelineRow[], series: readonly TimeSeries[], f: Frame, cls: string): string[] {
  return series.map((s, i) => {
    const style = styleOf(s, i);
    const path = line<TimelineRow>()
      .defined((r) => s.value(r) !== null)
      .x((r) => f.x(r.second + 0.5))
      .y((r) => f.y(s.value(r) ?? 0))
      .digits(2);
    return `<path class="${cls}" data-series="${esc(s.key)}" d="${path([...rows]) ?? ''}" fill="none" stroke="${style.colour}" stroke-width="2"${style.dash ? ` stroke-dasharray="${style.dash}"` : ''}><title>${esc(s.label)}</title></path>`;
  });
}

const maxOf = (rows: readonly TimelineRow[], series: readonly TimeSeries[]) => Math.max(0, ...rows.flatMap((r) => series.map((s) => s.value(r) ?? 0)));

const WINDOW_NOTE = 'Grey: warm-up, cool-down and the drain after the schedule, left out of the figures.';

type Stacked = { ok: number; rate_limited: number; errors: number };
const STACK_KEYS = ['ok', 'rate_limited', 'errors'] as const;
const STACK_COLOURS: Record<(typeof STACK_KEYS)[number], string> = { ok: OUTCOME_COLOURS.ok, rate_limited: OUTCOME_COLOURS.rate_limited, errors: OUTCOME_COLOURS.http_error };

/** Completions per second stacked by outcome, with offered and sent per second as lines (data-chart="rates"). */
export function renderRatesChart(rows: readonly TimelineRow[]): string {
  const title = 'Offered, sent, accepted and rate-limited requests per second';
  if (rows.length === 0) return emptyFigure('rates', title, 'No second of the run was recorded.');
  const over: TimeSeries[] = [
    { key: 'offered', label: 'offered per second', value: (r) => r.offered, colour: '#000000' },
    // Pink: the palette's orange is the 429 band's.
    { key: 'sent', label: 'sent per second', value: (r) => r.sent, colour: '#CC79A7' },
  ];
  const data: Stacked[] = rows.map((r) => ({ ok: r.ok, rate_limited: r.rate_limited, errors: r.errors }));
  const max = Math.max(maxOf(rows, over), ...data.map((d) => d.ok + d.rate_limited + d.errors));
  const f = frame(rows, max, 'requests per second');
  const layers = stack<Stacked, (typeof STACK_KEYS)[number]>().keys(STACK_KEYS)(data);
  const bands = layers.map((layer) => {
    const shape = area<[number, number]>()
      .x((_, i) => f.x(i + 0.5))
      .y0((d) => f.y(d[0]))
      .y1((d) => f.y(d[1]))
      .digits(2);
    const total = layer.reduce((s, d) => s + (d[1] - d[0]), 0);
    return `<path class="rate-band" data-outcome="${layer.key}" d="${shape(layer.map((d) => [d[0], d[1]] as [number, number])) ?? ''}" fill="${STACK_COLOURS[layer.key]}" fill-opacity="0.75"><title>${esc(`${layer.key}: ${total} completions`)}</title></path>`;
  });
  return figure({
    chart: 'rates',
    caption: title,
    label: `Per second: completions stacked by outcome (ok, rate-limited, errors), offered and sent arrivals as lines, over ${rows.length} seconds.`,
    width: WIDTH,
    height: HEIGHT,
    body: f.shading + f.axes + bands.join('') + lines(rows, over, f, 'rate-line').join(''),
    after: legend([
      ...STACK_KEYS.map((k) => ({ label: k === 'ok' ? 'accepted (ok)' : k === 'rate_limited' ? 'rate-limited (429)' : 'errors', colour: STACK_COLOURS[k], shape: 'box' as const })),
      ...over.map((s, i) => ({ label: s.key, ...styleOf(s, i), shape: 'line' as const })),
    ]) + `<p class="note">${WINDOW_NOTE}</p>`,
  });
}

/** A line chart of some timeline columns (latency percentiles, in flight). */
export function renderTimeLines(rows: readonly TimelineRow[], o: { chart: string; title: string; yLabel: string; series: readonly TimeSeries[] }): string {
  const max = maxOf(rows, o.series);
  if (rows.length === 0 || rows.every((r) => o.series.every((s) => s.value(r) === null))) return emptyFigure(o.chart, o.title, 'Nothing to draw: no request completed with these figures.');
  const f = frame(rows, max, o.yLabel);
  return figure({
    chart: o.chart,
    caption: o.title,
    label: `${o.title}, per second over ${rows.length} seconds: ${o.series.map((s) => s.label).join(', ')}.`,
    width: WIDTH,
    height: HEIGHT,
    body: f.shading + f.axes + lines(rows, o.series, f, 'time-line').join(''),
    after: legend(o.series.map((s, i) => ({ label: s.label, ...styleOf(s, i), shape: 'line' as const }))) + `<p class="note">${WINDOW_NOTE}</p>`,
  });
}

/** TTFT (first), TTFP and total p50/p95 per second of completion (data-chart="latency-time"). */
export const renderLatencyOverTime = (rows: readonly TimelineRow[]): string =>
  renderTimeLines(rows, {
    chart: 'latency-time',
    title: 'Latency percentiles over time (ok requests, by second of completion)',
    yLabel: 'ms',
    series: [
      { key: 'ttft_p50', label: 'TTFT p50', value: (r) => r.ttft_p50_ms },
      { key: 'ttft_p95', label: 'TTFT p95', value: (r) => r.ttft_p95_ms },
      { key: 'ttfp_p50', label: 'TTFP p50', value: (r) => r.ttfp_p50_ms },
      { key: 'ttfp_p95', label: 'TTFP p95', value: (r) => r.ttfp_p95_ms },
      { key: 'total_p50', label: 'total p50', value: (r) => r.total_p50_ms },
      { key: 'total_p95', label: 'total p95', value: (r) => r.total_p95_ms },
    ],
  });

/** Requests in flight at the end of each second (data-chart="in-flight"). */
export const renderInFlight = (rows: readonly TimelineRow[]): string =>
  renderTimeLines(rows, { chart: 'in-flight', title: 'Requests in flight', yLabel: 'requests', series: [{ key: 'in_flight', label: 'in flight', value: (r) => r.in_flight }] });

/**
 * The health probe per second (data-chart="health"): the slowest probe's latency as a line, and a
 * red mark on every second with a failing probe (a non-2xx status, or no answer), its status in
 * the mark's title. Null without a probe.
 */
export function renderHealthOverTime(rows: readonly TimelineRow[], path: string): string {
  const title = `Health probe ${path} over time`;
  const series: TimeSeries[] = [{ key: 'health_max', label: 'slowest probe of the second (ms)', value: (r) => r.health_max_ms, colour: '#0072B2' }];
  if (rows.every((r) => r.health_probes === 0)) return emptyFigure('health', title, 'No probe was sent.');
  const f = frame(rows, maxOf(rows, series), 'ms');
  const failing = rows.filter((r) => r.health_failures > 0);
  const marks = failing.map((r) => {
    const status = r.health_status === null ? 'no answer' : String(r.health_status);
    return `<rect class="health-failure" data-second="${r.second}" data-status="${esc(status)}" x="${px(f.x(r.second))}" y="${HEIGHT - M.bottom - 8}" width="${px(f.x(r.second + 1) - f.x(r.second))}" height="8" fill="#D55E00"><title>${esc(`second ${r.second}: ${r.health_failures} of ${r.health_probes} probes failed (${status})`)}</title></rect>`;
  });
  return figure({
    chart: 'health',
    caption: title,
    label: `${title}, per second over ${rows.length} seconds: the slowest probe's latency; ${failing.length} seconds with a failing probe, marked in red.`,
    width: WIDTH,
    height: HEIGHT,
    body: f.shading + f.axes + lines(rows, series, f, 'time-line').join('') + marks.join(''),
    after: legend([{ label: series[0]!.label, colour: '#0072B2', dash: '', shape: 'line' as const }, { label: 'a probe failed (non-2xx or no answer)', colour: '#D55E00', shape: 'box' as const }]) + `<p class="note">${WINDOW_NOTE}</p>`,
  });
}
