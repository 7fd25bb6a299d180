/**
 * `npx tsx test/bench/record-path.bench.ts`: µs per request of the record path after the response,
 * stage by stage, without the network or the client (issue 24 item 2): a full answer captured from
 * `chatbench serve` (test/bench/fixtures/serve-full.json) folded (client/full-response), made an
 * Exchange (client/exchange), redacted (client/redact), made a record (runner/to-record), scored as a
 * load run scores it (app/load/load-record), checked and serialised and screened for secrets as
 * results.jsonl's writer does (records/record-fast-check, app/store/results-file's line). Each stage
 * is timed by performance.now around it; the write itself is not in it. Since session 55 a load run
 * writes the record as measured while it sends and scores it after its last byte
 * (app/load/score-results.ts): the score stage, and the scores' share of the line, run then.
 *
 * `CHATBENCH_BENCH_BASELINE=DIR` (a checkout with its dist/ built) runs DIR's build in the same
 * process, rounds alternating, and prints each stage's medians and their difference: the stages
 * share the process, so a change to one of them shows as that stage's difference, where the whole
 * run's CPU moves by more than it between runs (docs/benchmarks-log.md, "Session 54"). Rounds of
 * 30,000 requests after a warm-up; the load average is printed.
 */
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as FullResponseModule from '../../src/client/full-response.js';
import type * as ExchangeModule from '../../src/client/exchange.js';
import type * as RedactModule from '../../src/client/redact.js';
import type * as ToRecordModule from '../../src/runner/to-record.js';
import type * as LoadRecordModule from '../../src/app/load/load-record.js';
import type * as FastCheckModule from '../../src/records/record-fast-check.js';
import { samplePlan } from './load/plan-bodies.js';
import { FULL_ANSWER_BODY, fullAnswerMeta } from './load/full-answer.js';

const ROOT = resolve(import.meta.dirname, '../..');
const ROUNDS = 10;
const PER_ROUND = 30_000;
const TOKEN = 'onyx_pat_chatbench_demo';
const STAGES = ['fold', 'exchange', 'redact', 'record', 'score', 'line'] as const;
/**
 * The fixture answers the sample's first question: each record is that question's, as at a repeat.
 * Planned by this checkout for both builds: a planned request is data, and the plan is not measured.
 */
const PLANNED = (await samplePlan('full')).plan.requestFor(0).planned;

/** One round of the build's record path: µs per request of each stage. */
type Round = () => number[];

async function recordPath(root: string): Promise<Round> {
  const load = async <T>(path: string) => (await import(pathToFileURL(join(root, 'dist', path)).href)) as T;
  const { fullResponseFigures } = await load<typeof FullResponseModule>('client/full-response.js');
  const { exchangeOf } = await load<typeof ExchangeModule>('client/exchange.js');
  const { redactExchange, createSecretScreen, runSecrets } = await load<typeof RedactModule>('client/redact.js');
  const { toRecord, attemptOf } = await load<typeof ToRecordModule>('runner/to-record.js');
  const { finishedRecord } = await load<typeof LoadRecordModule>('app/load/load-record.js');
  const { surelyValidRecord } = await load<typeof FastCheckModule>('records/record-fast-check.js');
  const secrets = runSecrets({ tokens: [TOKEN] });
  const screen = createSecretScreen(secrets);
  const times = new Float64Array(STAGES.length);
  let held = 0;
  const one = (i: number) => {
    let t = performance.now();
    const lap = (stage: number) => {
      const u = performance.now();
      times[stage]! += u - t;
      t = u;
    };
    // As load-target's client folds it: no documents kept.
    const figures = fullResponseFigures(FULL_ANSWER_BODY, 12, undefined, false);
    lap(0);
    const exchange = exchangeOf(figures, fullAnswerMeta(i));
    lap(1);
    const redacted = redactExchange(exchange, secrets);
    lap(2);
    const unscored = toRecord(PLANNED, redacted, [attemptOf(redacted, 1)], 0);
    lap(3);
    const record = finishedRecord(unscored, PLANNED);
    lap(4);
    if (!surelyValidRecord(record)) throw new Error('the fast check refused the record: the stages are not the run');
    const line = JSON.stringify(record);
    if (screen(line)) throw new Error('the screen found a secret in a clean line');
    lap(5);
    held += line.length;
  };
  return () => {
    times.fill(0);
    for (let i = 0; i < PER_ROUND; i++) one(i);
    if (held === 0) throw new Error('no line');
    return [...times].map((ms) => (ms / PER_ROUND) * 1000);
  };
}

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const BASELINE = process.env.CHATBENCH_BENCH_BASELINE || null;

const builds: Array<[string, Round]> = [['this build', await recordPath(ROOT)]];
if (BASELINE !== null) builds.push(['baseline', await recordPath(resolve(BASELINE))]);
for (const [, round] of builds) round(); // warm-up
const rounds = new Map<string, number[][]>(builds.map(([name]) => [name, []]));
for (let r = 0; r < ROUNDS; r++)
  for (const [name, round] of r % 2 === 0 ? builds : [...builds].reverse()) rounds.get(name)!.push(round());

const columns = (stage: number | 'total') => {
  const of = (each: number[][]) =>
    median(each.map((stages) => (stage === 'total' ? stages.reduce((a, b) => a + b, 0) : stages[stage]!)));
  const mine = of(rounds.get('this build')!);
  const base = rounds.get('baseline');
  return base === undefined
    ? `${mine.toFixed(2)}`
    : `${mine.toFixed(2)} | ${of(base).toFixed(2)} | ${(mine - of(base)).toFixed(2)}`;
};
process.stdout.write(
  `| stage | this build µs${BASELINE === null ? '' : ' | baseline µs | difference'} |\n` +
    `|---|---:${BASELINE === null ? '' : '|---:|---:'}|\n` +
    STAGES.map((name, i) => `| ${name} | ${columns(i)} |\n`).join('') +
    `| **total** | ${columns('total')} |\n` +
    `\n${ROUNDS} rounds of ${PER_ROUND} requests, medians; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}\n`,
);
