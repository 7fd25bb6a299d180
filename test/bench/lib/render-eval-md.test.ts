import { describe, expect, it } from 'vitest';
import type { MemoryRun } from './memory-run.js';
import { contended, dominantLeg, renderEvalMarkdown, type EvalBenchReport } from './render-eval-md.js';
import type { Spread, TimingFigure } from './timing-figures.js';
import type { TimingStep } from './timing-step.js';

const spread = (p50: number, p99: number): Spread => ({ count: 100, min: 0, p50, p90: p99, p99, max: p99 });
const FIGURES: TimingFigure[] = [
  'ttfp_error_ms',
  'ttft_error_ms',
  'client_ttfp_ms',
  'sim_ttfp_ms',
  'client_ttft_ms',
  'sim_ttft_ms',
  'client_send_ms',
  'sim_read_ms',
  'sim_first_part_ms',
  'client_first_part_ms',
  'sim_first_answer_ms',
  'client_first_answer_ms',
  'sim_handling_ms',
  'sim_answer_step_late_ms',
  'sim_flush_wait_ms',
];
const usage = {
  loop_delay_ms: { p50: 1, p99: 2, max: 9 },
  cpu_percent: 20,
  cpu_ms_per_request: 1.25,
  preempted: 40,
  gc: { count: 9, total_ms: 30, max_ms: 4.5 },
};

function step(
  concurrency: number,
  p99: number,
  tail: { client_send_ms: number; sim_read_ms: number; sim_send_ms: number; client_receive_ms: number },
): TimingStep {
  const legs = {
    count: 3,
    error_ms: tail.client_send_ms + tail.sim_read_ms + tail.sim_send_ms + tail.client_receive_ms,
    ...tail,
  };
  return {
    concurrency,
    requests: 300,
    duration_s: 20,
    in_flight_mean: concurrency,
    outcomes: { ok: 300 },
    not_ok: 0,
    unmatched: 0,
    clock: { offset_ms: 0.01, uncertainty_ms: 0.02, samples: 30 },
    figures: Object.fromEntries(FIGURES.map((f) => [f, spread(1.5, p99)])) as Record<TimingFigure, Spread>,
    tail: { ttfp: legs, ttft: legs },
    first_wave: { ttfp_error_ms: spread(50, 90), ttft_error_ms: null },
    waves: Array.from({ length: 7 }, (_, i) => ({
      wave: i + 1,
      requests: concurrency,
      ttfp_error_ms: spread(i === 0 ? 2.5 : 1.5, 4),
      ttft_error_ms: spread(1.5, 4),
      client_ttfp_ms: spread(0.5, 1),
      sim_ttfp_ms: spread(1, 3),
    })),
    sim: { ...usage, send_lag_ms: { count: 10, p50: 0.5, p99: 3, max: 8 } },
    client: usage,
  };
}

function memory(heapAt20k: number): MemoryRun {
  const at = (done: number, heap: number) => ({
    done,
    rss_mb: 200,
    heap_used_mb: heap,
    heap_total_mb: 80,
    external_mb: 10,
  });
  return {
    requests: 20_000,
    concurrency: 64,
    outcomes: { ok: 20_000 },
    run_s: 30,
    run_cpu_percent: 60,
    reports_s: 3,
    results_jsonl_mb: 60,
    baseline: { rss_mb: 140, heap_used_mb: 28, heap_total_mb: 50, external_mb: 5 },
    checkpoints: [at(5_000, 40), at(10_000, 40.2), at(20_000, heapAt20k)],
    peak_run: { rss_mb: 320, heap_used_mb: 150 },
    peak_reports: { rss_mb: 300, heap_used_mb: 120 },
    max_rss_mb: 330,
  };
}

function report(overrides: Partial<EvalBenchReport> = {}): EvalBenchReport {
  return {
    generated_at: '2026-01-02T03:04:05.000Z',
    machine: { cores: 2, cpu_model: 'Test CPU', node: 'v20.20.2', load_before: 0.5, load_after: 1.2, pinned: true },
    profile: { pre_answer_ms: 200, first_token_ms: 100, token_ms: 50, answer_sentences: 6 },
    scheduled: { first_part_ms: 0, first_answer_ms: 300 },
    timing: [
      step(100, 4, { client_send_ms: 0.2, sim_read_ms: 0.3, sim_send_ms: 2, client_receive_ms: 1 }),
      step(1_000, 40, { client_send_ms: 1, sim_read_ms: 30, sim_send_ms: 5, client_receive_ms: 4 }),
    ],
    memory: memory(40.5),
    ...overrides,
  };
}

describe('the per-wave table', () => {
  it('shows the first waves one by one and pools the rest', () => {
    const md = renderEvalMarkdown(report());
    expect(md).toContain('### Error per wave');
    expect(md).toContain('| 100 | 1 | 100 | 2.5 / 4.0 | 0.5 / 1.0 | 1.0 / 3.0 | 1.5 / 4.0 |');
    expect(md).toContain('| 100 | 4 | 100 | 1.5 / 4.0 | 0.5 / 1.0 | 1.0 / 3.0 | 1.5 / 4.0 |');
    expect(md).toContain('| 100 | 5–7 (median of the waves) | 300 | 1.5 / 4.0 | 0.5 / 1.0 | 1.0 / 3.0 | 1.5 / 4.0 |');
  });
});

describe('renderEvalMarkdown', () => {
  it('gives the machine, one row per concurrency, the ratio and a flat memory verdict', () => {
    const md = renderEvalMarkdown(report());
    expect(md).toContain('2026-01-02 · 2 cores (Test CPU) · Node v20.20.2');
    expect(md).toContain('| 100 | 300 | 1.5 / 4.0 | 1.5 / 4.0 | 1.5 / 4.0 | 1.5 / 4.0 |');
    expect(md).toContain('| 1000 | 300 | 1.5 / 40.0 |');
    expect(md).toContain('p99 ×10.0');
    expect(md).toContain('| 20000 | 200.0 | 40.5 | 10.0 |');
    expect(md).toContain('**flat**');
    expect(md).toContain('| 100 | simulator | 2.0 / 9 | 20% (1.25 ms) | 2 | 4.5 / 30 | send lag p50 / p99 0.5 / 3.0 |');
    expect(md).toContain('| 1000 | client | 2.0 / 9 | 20% (1.25 ms) | 2 | 4.5 / 30 | in flight 1000 |');
    expect(md).not.toContain('Contended machine');
  });

  it('says when the heap grows by about a record per record, and when the machine was contended', () => {
    const md = renderEvalMarkdown(report({ memory: memory(80), machine: { ...report().machine, load_before: 3 } }));
    expect(md).toContain('**GROWING**');
    expect(md).toContain('Contended machine');
    expect(md).toContain('load average 3.0 on 2 cores');
  });
});

describe('dominantLeg and contended', () => {
  it('names the leg with the largest mean over the tail', () => {
    const [low, high] = report().timing;
    expect(low && dominantLeg(low)).toMatch(/^the simulator sending late .*: 2\.0 of its 3\.5 ms mean$/);
    expect(high && dominantLeg(high)).toMatch(/^the simulator reading the request late/);
    expect(low && dominantLeg({ ...low, tail: { ttfp: null, ttft: null } })).toBe('no request was measured');
  });

  it('compares the load average with the cores', () => {
    expect(contended(report().machine)).toBe(false);
    expect(contended({ ...report().machine, load_before: 0.8 })).toBe(true);
    expect(contended({ ...report().machine, cores: 8, load_before: 4 })).toBe(false);
  });
});
