/**
 * `npx tsx test/bench/load/alloc-sites.ts [--tool chatbench|floor|floor+record] [--mode full|stream]
 * [--rate N] [--seconds N] [--top N] [--root DIR] [--flags "..."]`: where one tool of bench:load allocates, per request,
 * by site. One tool-child.ts run (4 s by default) under V8's sampling heap profiler over its measured
 * span (heap-sampler.mjs: collected objects included), then the bytes a request by the allocating
 * function (self), and by the first frame of the tool's own code on the stack (`src/` or `dist/` of
 * `--root`, the floor's file): what a site and everything it calls allocate, undici's and V8's
 * built-ins charged to the caller that asked. Sampled every 1 KB: sites under ~0.1 KB a request are
 * noise. Bounded: one run.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import type { Mode } from '../../../src/records/record.js';
import { planBodies } from './plan-bodies.js';
import { startSimProcess } from './sim-process.js';
import type { ToolJob, ToolResult } from './tool-child.js';
import { toolChildArgs, toolJobFiles } from './tool-args.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const arg = (name: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const TOOL = (arg('--tool') ?? 'chatbench') as ToolJob['tool'];
const MODE = (arg('--mode') ?? 'full') as Mode;
const RATE = Number(arg('--rate') ?? 1000);
const SECONDS = Math.min(20, Number(arg('--seconds') ?? 4));
const TOP = Number(arg('--top') ?? 30);
const TOOL_ROOT = resolve(arg('--root') ?? ROOT);
/** Extra V8 flags for the tool's run (`--no-turbo-inlining` charges each allocation to its own function). */
const EXTRA = (arg('--flags') ?? '').split(' ').filter(Boolean);

interface Node {
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  selfSize: number;
  children: Node[];
}

const frameName = (f: Node['callFrame']) =>
  `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(src|dist|node_modules|test)\//, '$1/')}:${f.lineNumber + 1}`;
const isOwn = (f: Node['callFrame']) =>
  (f.url.includes(`${TOOL_ROOT}/dist/`) || f.url.includes(`${TOOL_ROOT}/src/`) || f.url.includes('floor-client')) &&
  !f.url.includes('node_modules');

/** Bytes by allocating frame, and by the innermost own frame on the stack. */
function summarise(root: Node): { self: Map<string, number>; own: Map<string, number>; total: number } {
  const self = new Map<string, number>();
  const own = new Map<string, number>();
  let total = 0;
  const visit = (node: Node, ownName: string) => {
    const name = frameName(node.callFrame);
    const here = isOwn(node.callFrame) ? name : ownName;
    if (node.selfSize > 0) {
      total += node.selfSize;
      self.set(name, (self.get(name) ?? 0) + node.selfSize);
      own.set(here, (own.get(here) ?? 0) + node.selfSize);
    }
    for (const child of node.children) visit(child, here);
  };
  visit(root, '(outside the tool)');
  return { self, own, total };
}

const sims = await startSimProcess({ chat: { time_scale: 1e-6 } });
const load0 = loadavg();
try {
  const job: ToolJob = {
    tool: TOOL,
    baseUrl: sims.baseUrl,
    token: 'onyx_pat_chatbench_demo',
    mode: MODE,
    rate: RATE,
    durationMs: SECONDS * 1000,
    connections: 16,
    bodies: await planBodies(MODE),
    settleMs: 500,
  };
  const files = toolJobFiles(job, 'chatbench-alloc-');
  const profileFile = join(files.dir, 'heap.json');
  const child = spawn(process.execPath, toolChildArgs(job, files, { flags: EXTRA, preloads: ['heap-sampler.mjs'] }), {
    cwd: TOOL_ROOT,
    stdio: ['ignore', 'inherit', 'pipe'],
    env: { ...process.env, CHATBENCH_TOOL_ROOT: TOOL_ROOT, CHATBENCH_HEAP_PROFILE: profileFile },
  });
  let err = '';
  child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
  const code = await new Promise<number | null>((done) => child.once('exit', done));
  if (code !== 0) throw new Error(`${TOOL} exited ${code}: ${err.slice(-2000)}`);
  const r = JSON.parse(readFileSync(files.result, 'utf8')) as ToolResult;
  const profile = JSON.parse(readFileSync(profileFile, 'utf8')) as { head: Node };
  const { self, own, total } = summarise(profile.head);
  const kb = (bytes: number) => (bytes / 1024 / r.sent).toFixed(2);
  console.log(`${TOOL} ${MODE} ${RATE}/s from ${TOOL_ROOT}: ${r.sent} sent, ${kb(total)} KB a request sampled`);
  for (const [title, map] of [
    ['by the innermost own frame', own],
    ['by the allocating frame', self],
  ] as const) {
    console.log(`\n${title} (KB a request)`);
    for (const [name, bytes] of [...map].sort((a, b) => b[1] - a[1]).slice(0, TOP))
      console.log(`${kb(bytes).padStart(7)}  ${name}`);
  }
  console.log(`\nprofile: ${profileFile}`);
} finally {
  await sims.close();
  console.log(
    `load ${load0.map((x) => x.toFixed(2)).join(' ')} → ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
}
