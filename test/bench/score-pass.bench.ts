/**
 * `npx tsx test/bench/score-pass.bench.ts`: what a load run's scoring costs after its last byte
 * (app/load/score-results.ts), per record, from the compiled dist/ as the CLI runs it. A
 * results.jsonl of 20,000 measured records is made as a full-mode load run writes them (the answer
 * captured from `chatbench serve` in test/bench/fixtures/serve-full.json, folded, made a record of
 * arrival i of the sample's plan, written as measured), then scored in place; CPU (user + system)
 * per record, the median of three passes, each over a fresh copy. The pass reads each line back,
 * scores it, checks, serialises and screens the scored line and writes it: the in-window work it
 * took over is the scoring and the scores' share of the line (test/bench/record-path.bench.ts).
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as FullResponseModule from '../../src/client/full-response.js';
import type * as ExchangeModule from '../../src/client/exchange.js';
import type * as ToRecordModule from '../../src/runner/to-record.js';
import type * as LoadRecordModule from '../../src/app/load/load-record.js';
import type * as ScoreResultsModule from '../../src/app/load/score-results.js';
import type * as PrepareLoadModule from '../../src/app/load/prepare-load.js';
import type * as LoadPlanModule from '../../src/plan/load-plan.js';
import { FULL_ANSWER_BODY, fullAnswerMeta } from './load/full-answer.js';

const ROOT = resolve(import.meta.dirname, '../..');
const RECORDS = 20_000;
const PASSES = 3;

const load = async <T>(path: string) => (await import(pathToFileURL(join(ROOT, 'dist', path)).href)) as T;
const { fullResponseFigures } = await load<typeof FullResponseModule>('client/full-response.js');
const { exchangeOf } = await load<typeof ExchangeModule>('client/exchange.js');
const { toRecord, attemptOf } = await load<typeof ToRecordModule>('runner/to-record.js');
const { measuredRecord, planInput } = await load<typeof LoadRecordModule>('app/load/load-record.js');
const { scoreResults } = await load<typeof ScoreResultsModule>('app/load/score-results.js');
const { prepareLoad } = await load<typeof PrepareLoadModule>('app/load/prepare-load.js');
const { createLoadPlan } = await load<typeof LoadPlanModule>('plan/load-plan.js');

const prepared = await prepareLoad({
  operation: 'chat',
  mode: 'full',
  datasetPath: 'datasets/sample.csv',
  setFlags: [],
  cwd: ROOT,
});
if (prepared.source.operation !== 'chat') throw new Error('the sample is a chat dataset');
// What the pass reads of a spec: the plan's order and seed, the mode, and whether arrivals are conversations.
const spec = { mode: 'full', question_order: 'sequential', seed: 1, conversations: false } as LoadPlanModule.LoadSpec;
const plan = createLoadPlan(planInput(prepared, spec));

const dir = mkdtempSync(join(tmpdir(), 'chatbench-score-pass-'));
const measured = join(dir, 'measured.jsonl');
const lines: string[] = [];
for (let i = 0; i < RECORDS; i++) {
  const exchange = exchangeOf(fullResponseFigures(FULL_ANSWER_BODY, 12, undefined, false), fullAnswerMeta(i));
  const planned = plan.requestFor(i).planned;
  lines.push(JSON.stringify(measuredRecord(toRecord(planned, exchange, [attemptOf(exchange, 1)], 0))));
}
writeFileSync(measured, `${lines.join('\n')}\n`);

const perRecord: number[] = [];
for (let pass = 0; pass < PASSES; pass++) {
  const run = join(dir, `run-${pass}`);
  mkdirSync(run);
  copyFileSync(measured, join(run, 'results.jsonl'));
  const before = process.cpuUsage();
  const scored = await scoreResults(run, { prepared, spec, secrets: ['onyx_pat_chatbench_demo'] });
  const used = process.cpuUsage(before);
  if (scored !== RECORDS) throw new Error(`scored ${scored} of ${RECORDS}`);
  perRecord.push((used.user + used.system) / RECORDS);
}
rmSync(dir, { recursive: true, force: true });
const sorted = [...perRecord].sort((a, b) => a - b);
console.log(
  `score pass: ${sorted[1]!.toFixed(1)} µs CPU a record (passes ${perRecord.map((x) => x.toFixed(1)).join(', ')}; ` +
    `${RECORDS} records of a full answer each); load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' / ')}`,
);
