/**
 * @module bench/lib/render-eval-md
 * The evaluation benchmark's report (reports/bench/eval.json's content) and its Markdown: short
 * tables the README can take as they are, the machine and date they belong to, and a plain
 * statement of where a large error came from. Pure.
 */
import type { MemoryRun } from './memory-run.js';
import type { Spread } from './timing-figures.js';
import type { ProcessFigures, TimingStep } from './timing-step.js';

export interface Machine {
  cores: number;
  cpu_model: string;
  node: string;
  /** 1-minute load average before and after the benchmark. */
  load_before: number;
  load_after: number;
  /** The simulator and the client each had a core of their own (taskset). */
  pinned: boolean;
}

export interface EvalBenchReport {
  generated_at: string;
  machine: Machine;
  /** The simulator's deterministic profile. */
  profile: {
    first_part_ms?: number;
    pre_answer_ms: number;
    first_token_ms: number;
    token_ms: number;
    answer_sentences: number;
  };
  scheduled: { first_part_ms: number; first_answer_ms: number };
  timing: TimingStep[];
  memory: MemoryRun;
}

const f = (n: number | undefined | null, digits = 1) =>
  n === undefined || n === null || Number.isNaN(n) ? '–' : n.toFixed(digits);
const pair = (s: Spread | null) => `${f(s?.p50)} / ${f(s?.p99)}`;

/** The leg that contributed most to the worst 1% of TTFT errors, in words (or why there is none). */
export function dominantLeg(step: TimingStep): string {
  const tail = step.tail.ttft;
  if (tail === null) return 'no request was measured';
  const legs = [
    { name: 'the client receiving late (bytes waited in the kernel for its event loop)', ms: tail.client_receive_ms },
    { name: 'the client sending late (its event loop before undici wrote the request)', ms: tail.client_send_ms },
    { name: 'the simulator reading the request late (its event loop busy or descheduled)', ms: tail.sim_read_ms },
    { name: 'the simulator sending late (handling, scheduler lag)', ms: tail.sim_send_ms },
  ].sort((a, b) => b.ms - a.ms);
  const top = legs[0];
  return top === undefined ? 'nothing' : `${top.name}: ${f(top.ms)} of its ${f(tail.error_ms)} ms mean`;
}

/**
 * True when other processes competed for the cores before the benchmark began: the simulator and the
 * client need a core each, so other load above half a core of what is left means waiting for a core.
 */
export const contended = (m: Machine): boolean => m.load_before > Math.max(0.5, m.cores - 2);

function timingSection(report: EvalBenchReport): string[] {
  const rows = report.timing.map(
    (s) =>
      `| ${s.concurrency} | ${s.requests} | ${pair(s.figures.ttfp_error_ms)} | ${pair(s.figures.ttft_error_ms)} | ${pair(s.figures.client_ttft_ms)} | ${pair(s.figures.sim_ttft_ms)} |`,
  );
  const legRows = report.timing.map(
    (s) =>
      `| ${s.concurrency} | ${pair(s.figures.client_send_ms)} | ${pair(s.figures.sim_read_ms)} | ${pair(s.figures.sim_first_answer_ms)} | ${pair(s.figures.client_first_answer_ms)} | ${pair(s.figures.sim_handling_ms)} |`,
  );
  const processRows = report.timing.flatMap((s) => [
    processRow(
      s.concurrency,
      'simulator',
      s.sim,
      `${f(s.sim.send_lag_ms.p50)} / ${f(s.sim.send_lag_ms.p99)}`,
      s.duration_s,
    ),
    processRow(s.concurrency, 'client', s.client, `in flight ${s.in_flight_mean}`, s.duration_s),
  ]);
  const [low, high] = [report.timing[0], report.timing[report.timing.length - 1]];
  const ratio = (pick: (s: TimingStep) => number | undefined) => {
    const a = low && pick(low);
    const b = high && pick(high);
    return a && b && low !== high ? `×${f(b / a)}` : '–';
  };
  return [
    '## Timing error of TTFP and TTFT',
    '',
    `The simulator (its own process${report.machine.pinned ? ', own core' : ''}) plays a deterministic profile: the first part at ${report.scheduled.first_part_ms} ms, the first answer token at ${report.scheduled.first_answer_ms} ms (${report.profile.first_part_ms ?? 0} ms to the first part + ${report.profile.pre_answer_ms} ms retrieval + ${report.profile.first_token_ms} ms to the first token), then one token every ${report.profile.token_ms} ms. The client is chatbench's own (createChatClient + runPlan) with that many streams open. Error = measured − scheduled, ms, p50 / p99, over every request after the first wave. Each error is split exactly into the **client's part** (its event loop before undici wrote the request, plus the bytes' wait between the simulator handing them to the kernel and the client's timestamp) and the **simulator's part** (reading the request, then handing the bytes to the kernel later than scheduled).`,
    '',
    "| streams | requests | TTFP error | TTFT error | client's part (TTFT) | simulator's part (TTFT) |",
    '|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    `From ${low?.concurrency} to ${high?.concurrency} streams, side by side in this run: TTFP error p50 ${ratio((s) => s.figures.ttfp_error_ms?.p50)}, p99 ${ratio((s) => s.figures.ttfp_error_ms?.p99)}; the client's part of the TTFT error p99 ${ratio((s) => s.figures.client_ttft_ms?.p99)}.`,
    '',
    "The four legs (ms, p50 / p99), and the simulator's handling of a request before its first write:",
    '',
    '| streams | client send | sim read | sim send (first answer) | client receive (first answer) | sim handling |',
    '|---:|---:|---:|---:|---:|---:|',
    ...legRows,
    '',
    'Both processes over each step: event-loop delay p99 / max (ms); CPU as % of one core, with ms of CPU per request; preempted = involuntary context switches per second (the kernel gave the core to another process); GC pauses max / total (ms). A long loop delay with a short GC and little CPU is time the process was not running at all.',
    '',
    '| streams | process | loop delay | CPU | preempted /s | GC max / total | |',
    '|---:|---|---:|---:|---:|---:|---|',
    ...processRows,
    '',
    ...report.timing.map(
      (s) =>
        `- ${s.concurrency} streams: the worst 1% of TTFT errors (${s.tail.ttft?.count ?? 0} requests) come mostly from ${dominantLeg(s)}. First wave (all sent at once; not in the figures): TTFP error p50 / p99 ${pair(s.first_wave.ttfp_error_ms)}. Clock offset between the processes ${f(s.clock.offset_ms, 3)} ± ${f(s.clock.uncertainty_ms, 3)} ms.`,
    ),
    '',
    ...waveSection(report),
  ];
}

/** Waves shown one by one; the rest pooled into one row. */
const WAVES_SHOWN = 4;

/**
 * The error per wave: is the first second timed like the hundredth? A wave is `streams` sends in
 * send order; the first leaves at once after the run's warm-up (hot path warmed, connections
 * opened, as eval does), the later ones as streams end.
 */
export function waveSection(report: EvalBenchReport): string[] {
  const rows = report.timing.flatMap((s) => {
    const waves = s.waves ?? [];
    const shown = waves
      .slice(0, WAVES_SHOWN)
      .map(
        (w) =>
          `| ${s.concurrency} | ${w.wave} | ${w.requests} | ${pair(w.ttfp_error_ms)} | ${pair(w.client_ttfp_ms ?? null)} | ${pair(w.sim_ttfp_ms ?? null)} | ${pair(w.ttft_error_ms)} |`,
      );
    const rest = waves.slice(WAVES_SHOWN);
    if (rest.length === 0) return shown;
    const pooled = (pick: (w: (typeof waves)[number]) => Spread | null) => {
      const spreads = rest.map(pick).filter((x): x is Spread => x !== null);
      const mid = (key: 'p50' | 'p99') =>
        spreads.length === 0
          ? null
          : (spreads.map((x) => x[key]).sort((a, b) => a - b)[Math.floor(spreads.length / 2)] ?? null);
      return `${f(mid('p50'))} / ${f(mid('p99'))}`;
    };
    return [
      ...shown,
      `| ${s.concurrency} | ${WAVES_SHOWN + 1}–${waves.length} (median of the waves) | ${rest.reduce((n, w) => n + w.requests, 0)} | ${pooled((w) => w.ttfp_error_ms)} | ${pooled((w) => w.client_ttfp_ms ?? null)} | ${pooled((w) => w.sim_ttfp_ms ?? null)} | ${pooled((w) => w.ttft_error_ms)} |`,
    ];
  });
  if (rows.length === 0) return [];
  return [
    '### Error per wave',
    '',
    "Is the first second timed like the hundredth? A wave is one concurrency's worth of sends in send order: the first leaves at once, after the warm-up every run does (hot path warmed on a synthetic stream, connections opened ahead); later waves leave as streams end. Error = measured − scheduled, ms, p50 / p99, with the TTFP error split into chatbench's own part and the simulator's (a first wave of new questions arrives at once and keeps it busy).",
    '',
    "| streams | wave | requests | TTFP error | client's part | simulator's part | TTFT error |",
    '|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
  ];
}

function processRow(streams: number, name: string, p: ProcessFigures, extra: string, seconds: number): string {
  const label = name === 'simulator' ? `send lag p50 / p99 ${extra}` : extra;
  return `| ${streams} | ${name} | ${f(p.loop_delay_ms.p99)} / ${f(p.loop_delay_ms.max, 0)} | ${p.cpu_percent}% (${f(p.cpu_ms_per_request, 2)} ms) | ${f(p.preempted / Math.max(seconds, 0.1), 0)} | ${f(p.gc.max_ms)} / ${f(p.gc.total_ms, 0)} | ${label} |`;
}

function memorySection(m: MemoryRun): string[] {
  const first = m.checkpoints[0];
  const last = m.checkpoints[m.checkpoints.length - 1];
  const rows = m.checkpoints.map((c) => `| ${c.done} | ${f(c.rss_mb)} | ${f(c.heap_used_mb)} | ${f(c.external_mb)} |`);
  const growth =
    first && last && last.done > first.done
      ? `From ${first.done} to ${last.done} records: heap ${f(last.heap_used_mb - first.heap_used_mb)} MB (×${f(last.heap_used_mb / first.heap_used_mb, 2)}), RSS ${f(last.rss_mb - first.rss_mb)} MB (×${f(last.rss_mb / first.rss_mb, 2)}).`
      : '';
  const perRecordBytes =
    first && last && last.done > first.done
      ? ((last.heap_used_mb - first.heap_used_mb) * 1e6) / (last.done - first.done)
      : 0;
  const lineBytes = (m.results_jsonl_mb * 1e6) / m.requests;
  // Keeping the records would cost about a results.jsonl line each; a tenth of that is noise, not a leak.
  const flat = perRecordBytes < lineBytes / 10;
  return [
    '## Memory of a large evaluation run',
    '',
    `${m.requests} requests (sample.csv × 2 sets × stream and full) through runEval at concurrency ${m.concurrency}, simulator at 1/1000 of real time, in a fresh process: ${m.run_s} s (${m.run_cpu_percent}% CPU), then ${m.reports_s} s writing every report; results.jsonl ${f(m.results_jsonl_mb)} MB. Outcomes: ${Object.entries(
      m.outcomes,
    )
      .map(([k, n]) => `${k} ${n}`)
      .join(', ')}.`,
    '',
    '| records done | RSS MB | heap used MB | external MB |',
    '|---:|---:|---:|---:|',
    `| before the run | ${f(m.baseline.rss_mb)} | ${f(m.baseline.heap_used_mb)} | ${f(m.baseline.external_mb)} |`,
    ...rows,
    '',
    `Each row after a full GC. ${growth} That is ${f(perRecordBytes, 0)} bytes of heap per record against ${f(lineBytes, 0)} bytes per results.jsonl line: **${flat ? 'flat' : 'GROWING'}**. Peaks, garbage included: RSS ${f(m.peak_run.rss_mb)} MB and heap ${f(m.peak_run.heap_used_mb)} MB during the run, RSS ${f(m.peak_reports.rss_mb)} MB and heap ${f(m.peak_reports.heap_used_mb)} MB while writing the reports; the kernel's max RSS ${f(m.max_rss_mb)} MB.`,
  ];
}

/** The whole eval.md. */
export function renderEvalMarkdown(report: EvalBenchReport): string {
  const m = report.machine;
  return [
    '# Evaluation benchmark (`npm run bench`)',
    '',
    `${report.generated_at.slice(0, 10)} · ${m.cores} cores (${m.cpu_model}) · Node ${m.node} · load average ${f(m.load_before)} before, ${f(m.load_after)} after${m.pinned ? ' · simulator and client pinned to separate cores' : ' · taskset not found: processes not pinned'}.`,
    contended(m)
      ? `\n**Contended machine:** other processes were running (load average ${f(m.load_before)} on ${m.cores} cores before the benchmark began), so the kernel gave the pinned cores to them at times (see "preempted"). Tail figures below are larger than on a quiet machine.`
      : '',
    '',
    ...timingSection(report),
    '',
    ...memorySection(report.memory),
    '',
  ].join('\n');
}
