/**
 * `npx tsx test/bench/load/profile-summary.ts PROFILE REQUESTS [FROM TO]`: µs of the main thread per
 * request in a V8 CPU profile of one tool run (load.bench.ts --cpu-prof DIR writes them; the main
 * thread's is the file whose name ends `.0.001.cpuprofile`). The window is the part of the run in
 * which answers end (samples with `onResponseEnd` on the stack), cut to its FROM..TO fractions
 * (default 0.3..0.95: JIT warm-up and the drain left out); REQUESTS (the run's `sent`, in load.json)
 * is scaled by the same fraction. Prints busy, idle and GC time, the inclusive time of the
 * functions of the full-mode path, and the top self times, each in µs a request. A profile samples
 * wall time: on a loaded machine a thread taken off the CPU is counted where it stood, so compare
 * two builds by profiles taken in the same rounds (load.bench.ts alternates them).
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: readonly number[];
}
interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly startTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** The functions whose inclusive time is printed: the full-mode path from the send to the exchange. */
const FOCUS = [
  'launch',
  'dispatch',
  'writeH1',
  'onResponseEnd',
  'fullResponseFigures',
  'isCheckedFullResponse',
  'markerFigures',
  'resolveMarkers',
  'documentLinks',
  'citedDocumentIds',
  'settle',
  'exchangeOf',
  'redactExchange',
  'toLoadRecord',
  'onRecord',
];

/** The functions whose self time is printed besides the top ones: the attempt's start and its timestamp. */
const FOCUS_SELF = ['start', 'isoTime', 'armSilence', 'addLinks'];

const [file, requestsArg, fromArg = '0.3', toArg = '0.95'] = process.argv.slice(2);
if (file === undefined || requestsArg === undefined)
  throw new Error('usage: profile-summary.ts PROFILE REQUESTS [FROM TO]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parentOf = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parentOf.set(c, n.id);
const nameOf = (n: ProfileNode) => n.callFrame.functionName || '(anonymous)';
const placeOf = (n: ProfileNode) =>
  `${nameOf(n)} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber + 1}`;
const stackOf = (id: number): ProfileNode[] => {
  const stack: ProfileNode[] = [];
  for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) stack.push(byId.get(at)!);
  return stack;
};

const times: number[] = [];
let clock = profile.startTime;
for (const delta of profile.timeDeltas) times.push((clock += delta));
let first = Infinity;
let last = -Infinity;
profile.samples.forEach((id, i) => {
  if (stackOf(id).some((n) => nameOf(n) === 'onResponseEnd')) {
    first = Math.min(first, times[i]!);
    last = Math.max(last, times[i]!);
  }
});
if (first > last) throw new Error(`${file}: no sample ends an answer (not chatbench's main thread?)`);
const [from, to] = [Number(fromArg), Number(toArg)];
const start = first + (last - first) * from;
const end = first + (last - first) * to;
const requests = Number(requestsArg) * (to - from);

const self = new Map<string, number>();
const inclusive = new Map<string, number>();
let busy = 0;
let idle = 0;
profile.samples.forEach((id, i) => {
  if (times[i]! < start || times[i]! > end) return;
  const dt = profile.timeDeltas[i + 1] ?? 0; // a sample's time runs to the next one
  const stack = stackOf(id);
  if (nameOf(stack[0]!) === '(idle)') return void (idle += dt);
  busy += dt;
  self.set(placeOf(stack[0]!), (self.get(placeOf(stack[0]!)) ?? 0) + dt);
  for (const name of new Set(stack.map(nameOf))) inclusive.set(name, (inclusive.get(name) ?? 0) + dt);
});
const per = (us: number) => (us / requests).toFixed(1);
/** Self time of every function called `name`, wherever it is. */
const sum = (times: Map<string, number>, name: string) =>
  [...times].reduce((total, [place, us]) => (place.startsWith(`${name} `) ? total + us : total), 0);
const out = [
  `window ${((end - start) / 1000).toFixed(0)} ms, ~${requests.toFixed(0)} requests: busy ${per(busy)} µs a request, idle ${per(idle)}, GC ${per(self.get('(garbage collector) :0') ?? 0)}`,
  `inclusive: ${FOCUS.map((name) => `${name} ${per(inclusive.get(name) ?? 0)}`).join(', ')}`,
  `self: ${FOCUS_SELF.map((name) => `${name} ${per(sum(self, name))}`).join(', ')}; the top ones:`,
  ...[...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 25)
    .map(([place, us]) => `${per(us).padStart(7)}  ${place}`),
];
process.stdout.write(`${out.join('\n')}\n`);
