/**
 * `npx tsx test/bench/send-path.bench.ts`: µs of CPU per request of the generator's path up to the
 * response's figures, without the network (issue 24 item 2): the plan's request for an arrival
 * (plan/load-plan requestFor), the chat client's attempt (headers, timers, the caller's signal
 * watched, the body decoded and folded, the Exchange built and redacted), through a dispatcher that
 * answers in-process and at once with an answer captured from `chatbench serve`: full
 * (test/bench/fixtures/serve-full.json, one chunk) and streamed (serve-answer.ndjson, in one chunk
 * as at ~0 delays, and a line a chunk as at real pace). undici, the sockets and the record path
 * after the Exchange are not in it: what this measures is chatbench's own code on that path.
 *
 * `CHATBENCH_BENCH_BASELINE=DIR` measures DIR's build (a checkout with its node_modules) in the same
 * process, rounds alternating, and prints the paired ratio per scenario. Rounds of 4,000 requests
 * after a warm-up; medians; the load average is printed (a timing on a shared machine).
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as RunLoadModule from '../../src/app/load/run-load.js';
import type * as LoadPlanModule from '../../src/plan/load-plan.js';
import type * as ChatClientModule from '../../src/client/chat-client.js';
import { replayDispatcher } from '../../src/client/warm-up.js';

const ROOT = resolve(import.meta.dirname, '../..');
const ROUNDS = 9;
const PER_ROUND = 4_000;
const fixture = (name: string) => readFileSync(join(ROOT, 'test/bench/fixtures', name));

/** What one build gives this bench: a function that sends arrival `index` and resolves with its outcome. */
type Send = (index: number) => Promise<string>;

const lines = (bytes: Buffer): Buffer[] => {
  const out: Buffer[] = [];
  for (let from = 0; from < bytes.length;) {
    const nl = bytes.indexOf(0x0a, from);
    const to = nl === -1 ? bytes.length : nl + 1;
    out.push(bytes.subarray(from, to));
    from = to;
  }
  return out;
};

interface Scenario {
  readonly name: string;
  readonly mode: 'full' | 'stream';
  readonly chunks: readonly Buffer[];
  readonly contentType: string;
}
const stream = fixture('serve-answer.ndjson');
const SCENARIOS: readonly Scenario[] = [
  { name: 'full, one chunk', mode: 'full', chunks: [fixture('serve-full.json')], contentType: 'application/json' },
  { name: 'streamed, one chunk', mode: 'stream', chunks: [stream], contentType: 'application/x-ndjson' },
  { name: 'streamed, a line a chunk', mode: 'stream', chunks: lines(stream), contentType: 'application/x-ndjson' },
];

/** The send path of the build at `root`, for one scenario, with the load target's client options. */
async function sendPath(root: string, scenario: Scenario): Promise<Send> {
  const load = async <T>(path: string) => (await import(pathToFileURL(join(root, path)).href)) as T;
  const { prepareLoad } = await load<typeof RunLoadModule>('src/app/load/run-load.ts');
  const { createLoadPlan } = await load<typeof LoadPlanModule>('src/plan/load-plan.ts');
  const { createChatClient } = await load<typeof ChatClientModule>('src/client/chat-client.ts');
  const prepared = await prepareLoad({
    operation: 'chat',
    mode: scenario.mode,
    datasetPath: 'datasets/sample.csv',
    setFlags: [],
    cwd: ROOT,
  });
  const source = prepared.source;
  if (source.operation !== 'chat') throw new Error('the bench sends chat requests');
  const plan = createLoadPlan({
    operation: 'chat',
    rows: source.rows,
    set: source.set,
    defaults: source.defaults,
    mode: scenario.mode,
    order: 'sequential',
    seed: 1,
  });
  // As runner/load-target builds it: the run's signal shared by every request, no documents kept.
  const client = createChatClient({
    baseUrl: 'http://127.0.0.1/api',
    token: 'onyx_pat_chatbench_demo',
    dispatcher: replayDispatcher([scenario.chunks], scenario.contentType),
    keepDocuments: false,
  });
  const signal = new AbortController().signal;
  return async (index) => {
    const request = plan.requestFor(index);
    const exchange = await client.send(request.planned.body, signal, request.payload ?? undefined);
    return exchange.outcome;
  };
}

/** µs of CPU per request over one round. */
async function round(send: Send): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < PER_ROUND; i++) if ((await send(i)) !== 'ok') throw new Error(`request ${i} did not end ok`);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / PER_ROUND;
}

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const BASELINE = process.env.CHATBENCH_BENCH_BASELINE || null;

for (const scenario of SCENARIOS) {
  const builds: Array<[string, Send]> = [['this build', await sendPath(ROOT, scenario)]];
  if (BASELINE !== null) builds.push(['baseline', await sendPath(resolve(BASELINE), scenario)]);
  for (const [, send] of builds) for (let i = 0; i < 2; i++) await round(send); // warm-up
  const rounds = new Map<string, number[]>(builds.map(([name]) => [name, []]));
  for (let r = 0; r < ROUNDS; r++)
    for (const [name, send] of r % 2 === 0 ? builds : [...builds].reverse()) rounds.get(name)!.push(await round(send));
  const mine = rounds.get('this build')!;
  const base = rounds.get('baseline');
  const paired = base === undefined ? null : median(mine.map((m, i) => m / base[i]!));
  process.stdout.write(
    `${scenario.name}: this build ${median(mine).toFixed(1)} µs/request` +
      (base === undefined ? '' : `, baseline ${median(base).toFixed(1)}, paired ratio ${paired!.toFixed(3)}`) +
      '\n',
  );
}
process.stdout.write(
  `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}\n`,
);
