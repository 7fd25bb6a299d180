/**
 * `npx tsx test/bench/load/profile-diff.ts A_LABEL B_LABEL LABEL=PROFILE:REQUESTS ...`: where one
 * tool's main-thread CPU goes that another's does not, from V8 CPU profiles of their runs
 * (load.bench.ts --cpu-prof DIR writes one folder per tool and round; REQUESTS is that run's `sent`,
 * in load.json). Each sample's time is charged to an area: GC, V8's unattributed `(program)`, the
 * builtin it ran in (JSON.parse, …) or the file of its innermost frame with a script (undici's, Node's
 * or the tool's own); and, second table, to the innermost function of the tool's own code on the stack
 * (what the tool's code caused, undici and Node under it included). µs a request, the median of each
 * label's rounds, and A − B. The window is the part of the run in which answers end (samples with
 * undici's `onComplete` on the stack), cut to 0.3..0.95 as profile-summary.ts does. A profile samples
 * wall time: compare tools profiled in the same rounds.
 */
import { readCpuProfile } from './cpu-profile.js';

const FROM = 0.3;
const TO = 0.95;

/** The tool's own code: chatbench's compiled files, the floor's bundle (load/plain-module.ts), the bench's child. */
const isOwn = (url: string) =>
  url.includes('/dist/') || url.includes('/test/bench/') || url.includes('/.cache/chatbench-bench/');

/** The area of a script: undici's and Node's by file, the tool's by folder/file. */
function areaOf(url: string): string {
  const undici = /node_modules\/undici\/lib\/(.*)$/.exec(url);
  if (undici) return `undici ${undici[1]}`;
  if (url.startsWith('node:')) return url.replace(/^node:(internal\/)?/, 'node ');
  if (url.startsWith('wasm:')) return 'undici llhttp (wasm)';
  const bundled = /\/\.cache\/chatbench-bench\/\d+\/(.*)$/.exec(url);
  if (bundled) return `floor ${bundled[1]}`;
  const own = /\/(dist|test\/bench)\/(.*)$/.exec(url);
  if (own) return `${own[1] === 'dist' ? 'chatbench' : 'bench'} ${own[2]}`;
  const module = /node_modules\/(.*)$/.exec(url);
  return module ? `module ${module[1]}` : url;
}

/**
 * The report's coarser areas. A builtin implemented in C++ (JSON.parse, JSON.stringify) has no frame
 * of its own: its time is its caller's, so the tool's own code includes the JSON it parses and writes.
 */
function groupOf(area: string): string {
  if (area === '(garbage collector)') return 'GC';
  if (area === '(program)') return 'V8/Node native, no JS frame: (program)';
  if (/perf\/(observe|performance_entry)|young-generation/.test(area))
    return "GC observer (perf_hooks 'gc', runner/young-generation)";
  if (/^(builtin write|node (stream_base_commons|net|fs|streams\/|stream))/.test(area)) return 'socket and file writes';
  if (/^(builtin (runMicrotasks|.*Promise)|node process\/task_queues|node async_hooks)/.test(area))
    return 'promises, microtasks';
  if (area === 'node timers') return 'timers, immediates';
  if (/^undici/.test(area)) return 'undici (dispatch, HTTP/1 parser, body)';
  if (/^(builtin decode|node (encoding|buffer))/.test(area)) return 'bytes to text (TextDecoder, Buffer)';
  if (/^floor /.test(area)) return "the floor's own code (JSON.parse, JSON.stringify inside)";
  const own = /^chatbench (client\/wire|client|runner|records|metrics|app\/store|app|plan)\//.exec(area);
  if (own) return `chatbench ${own[1]}/`;
  if (area === 'builtin check') return 'chatbench records/ (the compiled fast check)';
  if (/^builtin RegExp/.test(area)) return 'chatbench client/wire/ (regular expressions)';
  return 'other';
}

interface Areas {
  readonly self: Map<string, number>;
  readonly owner: Map<string, number>;
  readonly busy: number;
}

function areasOf(file: string, requestsSent: number): Areas {
  const { profile, times, stackOf, window } = readCpuProfile(file);
  const { start, end } = window('onComplete', FROM, TO);
  const requests = requestsSent * (TO - FROM);
  const self = new Map<string, number>();
  const owner = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, us: number) => map.set(key, (map.get(key) ?? 0) + us);
  let busy = 0;
  profile.samples.forEach((id, i) => {
    if (times[i]! < start || times[i]! > end) return;
    const dt = (profile.timeDeltas[i + 1] ?? 0) / requests;
    const stack = stackOf(id);
    const leaf = stack[0]!.callFrame;
    if (leaf.functionName === '(idle)') return;
    busy += dt;
    const scripted = stack.find((n) => n.callFrame.url !== '');
    if (leaf.functionName.startsWith('(')) add(self, leaf.functionName, dt);
    else if (leaf.url === '') add(self, `builtin ${leaf.functionName || '(anonymous)'}`, dt);
    else add(self, areaOf(leaf.url), dt);
    const own = stack.find((n) => isOwn(n.callFrame.url));
    const ownKey = own
      ? `${own.callFrame.functionName || '(anonymous)'} ${areaOf(own.callFrame.url)}:${own.callFrame.lineNumber + 1}`
      : leaf.functionName.startsWith('(')
        ? leaf.functionName
        : `no own frame: ${areaOf(scripted?.callFrame.url ?? '')}`;
    add(owner, ownKey, dt);
  });
  return { self, owner, busy };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length === 0 ? 0 : s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const [labelA, labelB, ...runs] = process.argv.slice(2);
if (labelA === undefined || labelB === undefined || runs.length === 0)
  throw new Error('usage: profile-diff.ts A_LABEL B_LABEL LABEL=PROFILE:REQUESTS ...');
const byLabel = new Map<string, Areas[]>();
for (const run of runs) {
  const [, label, file, sent] = /^([^=]+)=(.+):(\d+)$/.exec(run) ?? [];
  if (label === undefined || file === undefined) throw new Error(`not LABEL=PROFILE:REQUESTS: ${run}`);
  byLabel.set(label, [...(byLabel.get(label) ?? []), areasOf(file, Number(sent))]);
}
const a = byLabel.get(labelA) ?? [];
const b = byLabel.get(labelB) ?? [];

function table(title: string, pick: (x: Areas) => Map<string, number>, top: number): string[] {
  const keys = new Set([...a, ...b].flatMap((x) => [...pick(x).keys()]));
  const rows = [...keys].map((key) => {
    const ma = median(a.map((x) => pick(x).get(key) ?? 0));
    const mb = median(b.map((x) => pick(x).get(key) ?? 0));
    return { key, ma, mb };
  });
  rows.sort((x, y) => Math.abs(y.ma - y.mb) - Math.abs(x.ma - x.mb));
  return [
    `| ${title} | ${labelA} | ${labelB} | ${labelA} − ${labelB} |`,
    '|:---|---:|---:|---:|',
    ...rows
      .slice(0, top)
      .map((r) => `| ${r.key} | ${r.ma.toFixed(1)} | ${r.mb.toFixed(1)} | ${(r.ma - r.mb).toFixed(1)} |`),
  ];
}

const groupCache = new WeakMap<Areas, Map<string, number>>();
function grouped(x: Areas): Map<string, number> {
  let groups = groupCache.get(x);
  if (groups === undefined) {
    groups = new Map();
    for (const [area, us] of x.self) groups.set(groupOf(area), (groups.get(groupOf(area)) ?? 0) + us);
    groupCache.set(x, groups);
  }
  return groups;
}

const out = [
  `busy µs a request (median of rounds): ${labelA} ${median(a.map((x) => x.busy)).toFixed(1)} (${a.map((x) => x.busy.toFixed(0)).join(', ')}), ${labelB} ${median(b.map((x) => x.busy)).toFixed(1)} (${b.map((x) => x.busy.toFixed(0)).join(', ')})`,
  '',
  ...table('self time by area group', grouped, 20),
  '',
  ...table('self time by area', (x) => x.self, 40),
  '',
  ...table('by the innermost own function', (x) => x.owner, 40),
];
process.stdout.write(`${out.join('\n')}\n`);
