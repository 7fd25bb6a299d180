/**
 * `npx tsx test/bench/eval-records.bench.ts [BASELINE_CHECKOUT]`: what an eval's record costs on its
 * way into results.jsonl and back out, µs of CPU a record. The records are eight an eval wrote with
 * the simulator's judge and `--checks` (test/bench/fixtures/eval-judged.jsonl: documents, four
 * verdicts, a check result; ~8 KB a line).
 * - **write check**: `toValidRecord` (records/valid-record), which the writer runs on every record:
 *   the fast check, or zod's walk and copy where it is not sure;
 * - **read**: `parseRecordLine` (app/store/read-records), which every report, compare, view and merge
 *   runs on every line: JSON.parse, then the line used as parsed or zod's walk.
 * With a baseline checkout (e.g. `git worktree add /tmp/base HEAD~1`), its modules run in the same
 * process in alternating rounds, and both trees' results are checked equal (a faster read that gave
 * another record would be no gain). Medians of 7 rounds; prints the load average; writes
 * reports/bench/eval-records.json.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import * as currentRead from '../../src/app/store/read-records.js';
import * as currentValid from '../../src/records/valid-record.js';
import type { RequestRecord } from '../../src/records/record.js';
import { baselineCheckout, pairedRounds, type PairedCase } from './lib/paired-rounds.js';

const ROUNDS = 7;
/** Lines per round: the fixture's eight, many times over. */
const CALLS = 4_000;

interface Tree {
  name: string;
  read(line: string): unknown;
  writeCheck(record: RequestRecord): unknown;
}
const treeOf = (name: string, read: typeof currentRead, valid: typeof currentValid): Tree => ({
  name,
  read: (line) => read.parseRecordLine(line),
  writeCheck: (record) => valid.toValidRecord(record),
});
const trees: Tree[] = [treeOf('this tree', currentRead, currentValid)];
const dir = baselineCheckout();
if (dir !== undefined) {
  trees.push(
    treeOf(
      'baseline',
      (await import(join(dir, 'src/app/store/read-records.ts'))) as typeof currentRead,
      (await import(join(dir, 'src/records/valid-record.ts'))) as typeof currentValid,
    ),
  );
}

const lines = readFileSync(join(import.meta.dirname, 'fixtures', 'eval-judged.jsonl'), 'utf8')
  .trim()
  .split('\n');
const records = lines.map((line) => JSON.parse(line) as RequestRecord);

// Every line of the fixture is checked: both trees must give the same records.
const cases: PairedCase<Tree>[] = [
  {
    name: 'write check (toValidRecord)',
    calls: CALLS,
    checked: records.length,
    run: (tree, { i }) => tree.writeCheck(records[i % records.length]!),
  },
  {
    name: 'read (parseRecordLine)',
    calls: CALLS,
    checked: lines.length,
    run: (tree, { i }) => tree.read(lines[i % lines.length]!),
  },
];

const rows = pairedRounds(trees, cases, ROUNDS);

const load = loadavg().map((l) => l.toFixed(2));
const paired = trees.length > 1;
const out = [
  `| an eval record (judged, ~8 KB), µs of CPU | ${trees.map((t) => t.name).join(' | ')} |${paired ? ' ratio | same results |' : ''}`,
  `|---|${trees.map(() => '---:').join('|')}|${paired ? '---:|:---:|' : ''}`,
  ...rows.map(
    (r) =>
      `| ${r.case} | ${r.us.map((u) => u.toFixed(1)).join(' | ')} |${paired ? ` ${(r.us[0]! / r.us[1]!).toFixed(2)}× | ${r.equal ? 'yes' : 'NO'} |` : ''}`,
  ),
  '',
  `Medians of ${ROUNDS} alternating rounds of ${CALLS.toLocaleString('en-US')} calls; load average ${load.join(' ')}.`,
];
process.stdout.write(`${out.join('\n')}\n`);
mkdirSync('reports/bench', { recursive: true });
writeFileSync(
  join('reports/bench', 'eval-records.json'),
  `${JSON.stringify({ trees: trees.map((t) => t.name), load_average: load, rows }, null, 2)}\n`,
);
if (rows.some((r) => !r.equal)) {
  process.stderr.write('eval-records.bench: the trees gave different results for the same lines\n');
  process.exitCode = 1;
}
