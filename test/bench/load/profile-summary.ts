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
import { readCpuProfile, type ProfileNode } from './cpu-profile.js';

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
const { profile, times, stackOf, window } = readCpuProfile(file);
const nameOf = (n: ProfileNode) => n.callFrame.functionName || '(anonymous)';
const placeOf = (n: ProfileNode) =>
  `${nameOf(n)} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber + 1}`;
const [from, to] = [Number(fromArg), Number(toArg)];
// onResponseEnd: chatbench's own end of an answer (the floor has none).
const { start, end } = window('onResponseEnd', from, to);
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
