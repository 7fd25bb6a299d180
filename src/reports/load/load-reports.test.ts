import { describe, expect, it } from 'vitest';
import { computeLoadFigures } from '../../metrics/load.js';
import type { LoadHealth, LoadSpecFields } from '../../metrics/load-input.js';
import { parseSlo } from '../../metrics/load-slo.js';
import { toLoadRecord } from '../../metrics/load-window.js';
import { makeRecord } from '../../metrics/test-records.js';
import type { CapacityResult, CapacityStep } from '../../records/load-summary.js';
import { renderCapacityHtml, renderCapacityMd } from './capacity-report.js';
import { renderLoadHtml } from './load-html.js';
import { renderLoadMd } from './load-md.js';
import type { LoadReportInput } from './load-tables.js';
import { renderTimelineCsv, TIMELINE_COLUMNS } from './timeline-csv.js';

const spec: LoadSpecFields = { operation: 'chat', mode: 'stream', model: 'open', rate: 10, arrival: 'constant', stages: null, duration_ms: 5000, requests: null, warmup_ms: 1000, cooldown_ms: 0, set: 'fast' };
const health = (over: Partial<LoadHealth> = {}): LoadHealth => ({
  planned_arrivals: 50, sent: 50, dropped: [], late_sends: 0, schedule_lag_ms: { p50: 0.1, p99: 1, max: 2 }, peak_in_flight: 4,
  cpu_user_ms: 30, cpu_system_ms: 5, interrupted: false, started_at: '2026-01-01T00:00:00.000Z', start_delay_ms: 0, schedule_ms: 5000, ...over,
});
const records = Array.from({ length: 50 }, (_, i) => {
  const limited = i % 7 === 6;
  return toLoadRecord(makeRecord({
    question_id: `q${i}`, repeat: i, scheduled_offset_ms: i * 100, sent_offset_ms: i * 100 + 1, queue_ms: 1, total_ms: 300 + i, response_ms: 301 + i,
    outcome: limited ? 'rate_limited' : 'ok', ttfp_ms: limited ? null : 50 + i, token_index: i % 2,
    rate_limit: limited ? { retry_after_s: 1, scope: 'gateway', reset_at: null } : null,
  }));
});

function input(h: LoadHealth): LoadReportInput {
  const figures = computeLoadFigures({ records, spec, generator: h, slos: [parseSlo('ttfp_ms.p95<=2000'), parseSlo('rate_limited_rate<=0.05')] });
  return { summary: figures.summary, samples: figures.samples, meta: { title: 'chatbench load: fast', generated_by: 'chatbench test', run_dir: 'runs/x' } };
}

describe('report.md', () => {
  it('opens with the failures (before any figure), then the title, and lists SLOs, windows, latency, 429s per token', () => {
    const md = renderLoadMd(input(health()));
    const lines = md.split('\n');
    // The generator kept up: no warning; 7 of the 50 requests failed (429s and errors): said first.
    expect(lines[0]).toBe('> **7 of 50 requests failed (14%): 7 rate\\_limited. Latencies and scores describe the 43 that ended ok.**');
    expect(lines[2]).toBe('# chatbench load: fast');
    expect(md).toContain('BROKEN: rate\\_limited\\_rate\\<=0.05 broken');
    expect(md).toContain('| response time (from scheduled) |');
    expect(md).toMatch(/\| 0 \| 25 \| 4 \| 57% \| 16% \|\n\| 1 \| 25 \| 3 \| 43% \| 12% \|/);
    expect(md).toContain('Time to the first 429: 0.65 s after the start (6 requests accepted before it).');
  });

  it('puts the generator warning in its first line', () => {
    const md = renderLoadMd(input(health({ dropped: [{ scheduled_offset_ms: 2000 }] })));
    expect(md.split('\n')[0]).toMatch(/^> \*\*Warning: the load generator fell behind its schedule: 1 arrivals dropped/);
  });
});

describe('report.html', () => {
  const html = renderLoadHtml(input(health({ schedule_lag_ms: { p50: 2, p99: 9, max: 20 }, late_sends: 5 })));

  it('shows the warning as the first element of the page', () => {
    const main = html.slice(html.indexOf('<main>') + '<main>'.length).trimStart();
    expect(main.startsWith('<p class="warning" role="alert">Warning: the load generator fell behind')).toBe(true);
  });

  it.each(['rates', 'latency-time', 'in-flight', 'latency-cdf'])('has the %s chart', (chart) => {
    expect(html).toContain(`data-chart="${chart}"`);
  });

  it('draws outcome bands, rate lines and both CDFs', () => {
    expect(html).toMatch(/class="rate-band" data-outcome="ok"/);
    expect(html).toMatch(/class="rate-band" data-outcome="rate_limited"/);
    expect(html).toMatch(/class="rate-line" data-series="offered"/);
    expect(html).toMatch(/class="cdf-line" data-series="service"/);
    expect(html).toMatch(/class="cdf-line" data-series="response"/);
    expect(html).toMatch(/class="window-shade" data-window="warmup"/);
  });

  it('is self-contained: no script, no external URL', () => {
    expect(html).not.toMatch(/<script|src=|href=|https?:\/\//i);
    expect(html).toContain("default-src 'none'");
  });
});

describe('timeline.csv', () => {
  it('has one row per second under the header, empty cells for missing percentiles', () => {
    const { summary } = computeLoadFigures({ records, spec, generator: health(), slos: [] });
    const lines = renderTimelineCsv(summary.timeline).trim().split('\n');
    expect(lines[0]).toBe(TIMELINE_COLUMNS.join(','));
    expect(lines).toHaveLength(summary.timeline.length + 1);
    expect(lines[1]).toMatch(/^0,warmup,10,10,0,/);
    expect(renderTimelineCsv([{ ...summary.timeline[0]!, ttfp_p50_ms: null }]).split('\n')[1]).toContain(',,');
  });
});

describe('capacity reports', () => {
  const step = (index: number, target: number, good: boolean, over: Partial<CapacityStep> = {}): CapacityStep => ({
    index, phase: index < 3 ? 'ramp' : 'bisect', target, good, reasons: good ? [] : ['saturated: accepted 40/s, under 95% of the offered 60/s'], dir: `steps/0${index + 1}-rate-${target}`,
    offered_rate: target, sent_rate: target, ok_rate_per_s: Math.min(target, 40), goodput: Math.min(target, 40), rate_limited_rate: good ? 0 : 0.3, error_rate: 0,
    ttft_p50_ms: 8, ttft_p95_ms: 18, ttfp_p50_ms: 10, ttfp_p95_ms: 20, total_p95_ms: 100, response_p95_ms: 110, ttfp_rise: 0, tpot_per_token_p50_ms: null, output_tokens_per_s: null, itl_p95_ms: null, warning: null, loop_delay_ms: { p50: 0.1, p99: 1.5, max: 3 + index }, ...over,
  });
  const result: CapacityResult = {
    capacity_version: 1, unit: 'requests_per_s', sustainable: 37.5, knee: 41.25, stopped: 'converged', precision: 0.1, slos: ['rate_limited_rate<=0.05'],
    steps: [step(0, 15, true), step(1, 30, true), step(2, 60, false), step(3, 45, false), step(4, 37.5, true), step(5, 41.25, false, { warning: 'Warning: …' })],
    duration_s: 20,
  };

  it('the step chart marks every step good or bad and the knee', () => {
    const html = renderCapacityHtml(result, { generated_by: 'chatbench test', run_dir: null });
    expect(html).toContain('data-chart="capacity-steps"');
    expect(html.match(/class="step step-good"/g)).toHaveLength(3);
    expect(html.match(/class="step step-bad"/g)).toHaveLength(3);
    expect(html).toMatch(/<g class="knee" data-value="41.25">/);
    expect(html).toMatch(/<g class="sustainable" data-value="37.5">/);
    expect(html).not.toMatch(/<script|src=|href=|https?:\/\//i);
  });

  it('capacity.md leads with the steps whose generator fell behind, then the verdict', () => {
    const md = renderCapacityMd(result, { generated_by: 'chatbench test', run_dir: null });
    expect(md.split('\n')[0]).toMatch(/^> \*\*Warning: the load generator fell behind in 1 of 6 steps \(targets 41.25\)/);
    expect(md).toContain('**highest sustainable: 37.5 requests/s; knee at 41.25 requests/s (6 steps, 20 s; stopped: the sustainable target and the knee are within the precision).**');
    // The timing uncertainty: the worst step's event-loop delay, and what it means past 5 ms.
    expect(md).toContain('Timing uncertainty: the generator\'s event-loop delay reached p99 1.5 ms, max 8.0 ms (step 6): that step\'s timings may be late by up to 8.0 ms.');
  });
});
