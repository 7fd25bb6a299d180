/**
 * `npx tsx test/bench/question-memory.bench.ts RESULTS.jsonl [--records N] [--structures a,b]`: what
 * each structure of the reports' pass (app/eval/render-reports readRun) keeps a question, alone: the
 * first N records (default 20,000) of a run's results.jsonl fed to one structure in a process of its
 * own, then two full collections, and V8's heap plus the typed arrays' memory (heapUsed alone leaves
 * their backing stores out) grown, divided by the records. Over a run of distinct questions that is
 * the cost of a question (docs/benchmarks-log.md "Session 38: distinct questions in bounded memory").
 * `none` (only reading the records) gives the measure's own floor.
 */
import { spawnSync } from 'node:child_process';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { answerReader } from '../../src/app/store/answer-at.js';
import { readRecordEntries } from '../../src/app/store/read-records.js';
import { createRunCollector } from '../../src/compare/run-data.js';
import { createRepeatsAccumulator } from '../../src/metrics/repeats.js';
import { createSummarizer } from '../../src/metrics/summarize.js';
import { SortedValues } from '../../src/metrics/stats.js';
import type { RequestRecord } from '../../src/records/record.js';
import type { Summary } from '../../src/records/summary.js';
import { createReportInputBuilder } from '../../src/reports/index.js';

const arg = (name: string): string | undefined =>
  process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined;
const FILE = process.argv[2];
const RECORDS = Number(arg('--records') ?? 20_000);
const NO_VALUES = SortedValues.of(new Uint32Array(0), true);

/** A structure of the pass: takes records (with their line's offset); `keep` is what outlives the pass (the run's data, finished). */
interface Structure {
  add(record: RequestRecord, offset: number): void;
  keep?: () => unknown;
}

/**
 * The run's data as the pass makes it: the summary's figures come from the pass's summarizer, not
 * its own, and a first answer is its line's offset (app/store/answer-at).
 */
const runCollector = () =>
  createRunCollector({
    answerAt: answerReader(FILE!),
    summarizer: { finish: () => ({}) as Summary, repeats: () => [], latency: () => NO_VALUES },
  });

const STRUCTURES: Record<string, () => Structure> = {
  none: () => ({ add() {} }),
  summary: () => createSummarizer({ setOrder: [] }),
  repeats: () => createRepeatsAccumulator(),
  'run data': () => runCollector(),
  'run data, finished': () => {
    const run = runCollector();
    return { add: (record, offset) => run.add(record, offset), keep: () => run.finish('bench') };
  },
  'report rows': () => createReportInputBuilder({ latencyOf: () => NO_VALUES }),
};

async function measureOne(name: string): Promise<void> {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const used = () => {
    const memory = process.memoryUsage();
    return memory.heapUsed + memory.arrayBuffers;
  };
  const structure = STRUCTURES[name]!();
  gc();
  gc();
  const before = used();
  let count = 0;
  for await (const entry of readRecordEntries(FILE!)) {
    structure.add(entry.record, entry.place.offset);
    if (++count >= RECORDS) break;
  }
  const kept = structure.keep?.();
  gc();
  gc();
  console.log(
    JSON.stringify({ name, records: count, bytes: Math.round((used() - before) / count), kept: kept !== undefined }),
  );
}

if (FILE === undefined)
  throw new Error('usage: question-memory.bench.ts RESULTS.jsonl [--records N] [--structures a,b]');
const one = arg('--one');
if (one !== undefined) await measureOne(one);
else {
  const names = arg('--structures')?.split(',') ?? Object.keys(STRUCTURES);
  console.log(`| structure (${RECORDS.toLocaleString('en-US')} records of ${FILE}) | bytes a record |`);
  console.log('|--|--:|');
  for (const name of names) {
    const child = spawnSync(
      process.execPath,
      [...process.execArgv, import.meta.filename, FILE, '--records', String(RECORDS), '--one', name],
      {
        encoding: 'utf8',
      },
    );
    const line = child.stdout.trim().split('\n').at(-1) ?? '';
    const result = line.startsWith('{') ? (JSON.parse(line) as { bytes: number }) : undefined;
    console.log(`| ${name} | ${result?.bytes ?? `failed: ${child.stderr.trim().split('\n').at(-1)}`} |`);
  }
}
