/**
 * `npx tsx test/bench/load/gc-trace.ts [--only TEXT] [--rounds N] [--busy MB,MB] [--flags "..."]`: what
 * each tool of bench:load (load.bench.ts, its tool-child.ts runs) allocates, keeps and collects per
 * request, read from V8's own `--trace-gc-nvp` lines over the measured span (gc-marker.mjs marks it):
 * floor, floor+record, chatbench, CHATBENCH_BENCH_BASELINE's chatbench when set, and chatbench again
 * with each `--busy` semi-space cap (runner/young-generation.ts BUSY_SEMI_SPACE_MB), full and streamed
 * at 1,000/s and 200/s. Per request sent: scavenges, their pause (wall time: a loaded machine lengthens
 * it), bytes that survived a scavenge and bytes promoted to the old generation, bytes allocated; full
 * collections; the young generation (both semi-spaces) as the span ends. `--flags` adds V8 flags to
 * chatbench's runs. Tracing costs CPU of its own: take CPU ratios from load.bench.ts. Bounded: a fixed
 * list of 4 s runs.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import type { Mode } from '../../../src/records/record.js';
import { median } from './judge.js';
import { planBodies } from './plan-bodies.js';
import { startSimProcess } from './sim-process.js';
import type { ToolJob, ToolResult } from './tool-child.js';
import { toolChildArgs, toolJobFiles } from './tool-args.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const BASELINE = process.env.CHATBENCH_BENCH_BASELINE || null;
const arg = (name: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const ONLY = arg('--only') ?? '';
const ROUNDS = Math.max(1, Number(arg('--rounds') ?? 1));
/** Extra V8 flags for chatbench's and the baseline's runs (e.g. `--max-semi-space-size=16`). */
const EXTRA = (arg('--flags') ?? '').split(' ').filter(Boolean);
/** `--busy 16,32`: chatbench again with each of these busy semi-space caps (cli-start.mjs's CHATBENCH_BUSY_SEMI_SPACE_MB). */
const BUSY = (arg('--busy') ?? '').split(',').filter(Boolean).map(Number);

interface GcFigures {
  sent: number;
  scavenges: number;
  scavenge_pause_ms: number;
  marks: number;
  mark_pause_ms: number;
  copied_kb: number;
  promoted_kb: number;
  allocated_kb: number;
  new_space_kb: number;
}

/** Sums the main isolate's --trace-gc-nvp lines inside the measured span [from, to] (ms since start). */
function parseNvp(out: string, from: number, to: number): Omit<GcFigures, 'sent' | 'new_space_kb'> {
  const f = {
    scavenges: 0,
    scavenge_pause_ms: 0,
    marks: 0,
    mark_pause_ms: 0,
    copied_kb: 0,
    promoted_kb: 0,
    allocated_kb: 0,
  };
  let main: string | undefined;
  for (const line of out.split('\n')) {
    const head = /^\[\d+:(0x[0-9a-f]+)\]\s+(\d+) ms: /.exec(line);
    if (head === null) continue;
    main ??= head[1];
    const at = Number(head[2]);
    if (head[1] !== main || at < from || at > to) continue;
    const kv = new Map<string, string>();
    for (const m of line.matchAll(/(\w+)=(\S+)/g)) kv.set(m[1]!, m[2]!);
    const num = (k: string) => Number(kv.get(k) ?? 0);
    if (kv.get('gc') === 's') {
      f.scavenges++;
      f.scavenge_pause_ms += num('pause');
    } else {
      f.marks++;
      f.mark_pause_ms += num('pause');
    }
    f.copied_kb += num('new_space_survived') / 1024;
    f.promoted_kb += num('promoted') / 1024;
    f.allocated_kb += num('allocated') / 1024;
  }
  return f;
}

async function run(job: ToolJob, root: string, busyMb?: number): Promise<GcFigures> {
  const files = toolJobFiles(job, 'chatbench-gc-');
  const child = spawn(
    process.execPath,
    toolChildArgs(job, files, {
      flags: ['--trace-gc-nvp', ...(job.tool === 'chatbench' ? EXTRA : [])],
      preloads: ['gc-marker.mjs'],
    }),
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        CHATBENCH_TOOL_ROOT: root,
        ...(busyMb === undefined ? {} : { CHATBENCH_BUSY_SEMI_SPACE_MB: String(busyMb) }),
      },
    },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
  const code = await new Promise<number | null>((done) => child.once('exit', done));
  if (code !== 0) throw new Error(`${job.tool} exited ${code}: ${err.slice(-2000)}`);
  const r = JSON.parse(readFileSync(files.result, 'utf8')) as ToolResult;
  const marks = [...err.matchAll(/GC-MARK ([\d.]+) NEW-SPACE (\d+)/g)];
  if (marks.length < 2) throw new Error(`${job.tool}: no measured span marked`);
  return {
    sent: r.sent,
    ...parseNvp(out, Number(marks[0]![1]), Number(marks[1]![1])),
    new_space_kb: Number(marks[1]![2]) / 1024,
  };
}

const sims = await startSimProcess({ chat: { time_scale: 1e-6 } });
const load0 = loadavg();
try {
  const scenarios = [
    { name: 'full 1,000/s', mode: 'full' as Mode, rate: 1000 },
    { name: 'streamed 1,000/s', mode: 'stream' as Mode, rate: 1000 },
    { name: 'full 200/s', mode: 'full' as Mode, rate: 200 },
    { name: 'streamed 200/s', mode: 'stream' as Mode, rate: 200 },
  ].filter((s) => s.name.includes(ONLY));
  for (const s of scenarios) {
    const bodies = await planBodies(s.mode);
    const rows: Record<string, GcFigures[]> = {};
    for (let round = 1; round <= ROUNDS; round++) {
      const tools: [string, ToolJob['tool'], string][] = [
        ['floor', 'floor', ROOT],
        ['floor+record', 'floor+record', ROOT],
        ['chatbench', 'chatbench', ROOT],
        ...(BASELINE === null ? [] : ([['baseline', 'chatbench', BASELINE]] as [string, ToolJob['tool'], string][])),
        ...BUSY.map((mb) => [`chatbench busy ${mb} MiB`, 'chatbench', ROOT] as [string, ToolJob['tool'], string]),
      ];
      for (const [name, tool, root] of round % 2 ? tools : tools.reverse()) {
        const f = await run(
          {
            tool,
            baseUrl: sims.baseUrl,
            token: 'onyx_pat_chatbench_demo',
            mode: s.mode,
            rate: s.rate,
            durationMs: 4000,
            connections: 16,
            bodies,
            settleMs: 500,
          },
          root,
          /busy (\d+)/.exec(name) ? Number(/busy (\d+)/.exec(name)![1]) : undefined,
        );
        (rows[name] ??= []).push(f);
      }
    }
    console.log(`\n${s.name} (per request; medians of ${ROUNDS})`);
    console.log(
      'tool | sent | scavenges/1k req | scavenge pause µs/req | survived KB/req | promoted KB/req | allocated KB/req | marks | mark pause µs/req | new space KB at end',
    );
    for (const [name, fs] of Object.entries(rows)) {
      const m = (pick: (f: GcFigures) => number) => median(fs.map(pick)) ?? 0;
      console.log(
        [
          name,
          m((f) => f.sent),
          m((f) => (f.scavenges / f.sent) * 1000).toFixed(2),
          m((f) => (f.scavenge_pause_ms / f.sent) * 1000).toFixed(1),
          m((f) => f.copied_kb / f.sent).toFixed(2),
          m((f) => f.promoted_kb / f.sent).toFixed(2),
          m((f) => f.allocated_kb / f.sent).toFixed(1),
          m((f) => f.marks),
          m((f) => (f.mark_pause_ms / f.sent) * 1000).toFixed(1),
          m((f) => f.new_space_kb).toFixed(0),
        ].join(' | '),
      );
    }
  }
} finally {
  await sims.close();
  console.log(
    `load ${load0.map((x) => x.toFixed(2)).join(' ')} → ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
}
