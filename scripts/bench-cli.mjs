#!/usr/bin/env node
// `npm run bench:cli`: how long the CLI takes to start, as a user runs it (`node bin/chatbench.js`, the
// compiled dist/): `--version`, `validate` of the sample dataset and models, `load --help`, `eval
// --help` and a command line the parser refuses, each the median of 10 runs after one unmeasured
// warm-up, beside plain `node -e 0` (Node's own start) and the sources run through tsx (what every
// start cost before dist/). Writes reports/bench/cli.json and .md. Not a test: the figures depend on
// the machine and its load.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCli } from './build-cli.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = 10;
const validate = ['validate', '--dataset', 'datasets/sample.csv', '--sets-file', 'datasets/models.example.json'];
const cases = [
  { name: 'node -e 0 (Node alone)', args: ['-e', '0'] },
  { name: 'chatbench --version', args: ['bin/chatbench.js', '--version'] },
  { name: 'chatbench validate', args: ['bin/chatbench.js', ...validate] },
  { name: 'chatbench load --help', args: ['bin/chatbench.js', 'load', '--help'] },
  { name: 'chatbench eval --help', args: ['bin/chatbench.js', 'eval', '--help'] },
  // Refused by the parser (no --dataset, exit 2): the flags' modules only, not the run's.
  { name: 'chatbench eval --sim (refused)', args: ['bin/chatbench.js', 'eval', '--sim'], exit: 2 },
  { name: 'tsx src/cli/bin.ts --version (before dist/)', args: ['--import', 'tsx', 'src/cli/bin.ts', '--version'] },
  { name: 'tsx src/cli/bin.ts validate (before dist/)', args: ['--import', 'tsx', 'src/cli/bin.ts', ...validate] },
];

function once(args, exit = 0) {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
  });
  const ms = performance.now() - started;
  if (result.status !== exit)
    throw new Error(`node ${args.join(' ')} exited ${result.status}: ${result.stderr.toString().slice(0, 500)}`);
  return ms;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  return sorted.length % 2 ? sorted[Math.floor(mid)] : (sorted[mid - 1] + sorted[mid]) / 2;
};

buildCli();
const rows = [];
for (const c of cases) {
  once(c.args, c.exit);
  const times = Array.from({ length: RUNS }, () => once(c.args, c.exit));
  rows.push({
    name: c.name,
    median_ms: Math.round(median(times)),
    min_ms: Math.round(Math.min(...times)),
    max_ms: Math.round(Math.max(...times)),
  });
  console.log(
    `${c.name}: median ${Math.round(median(times))} ms (min ${Math.round(Math.min(...times))}, max ${Math.round(Math.max(...times))})`,
  );
}
const machine = {
  node: process.version,
  cpu: cpus()[0]?.model ?? 'unknown',
  cores: cpus().length,
  load_average_1m: Number(loadavg()[0].toFixed(2)),
};
const result = { bench: 'cli', runs: RUNS, machine, rows };
const md = [
  '# chatbench start time (`npm run bench:cli`)',
  '',
  `Median of ${RUNS} runs after a warm-up; ${machine.cpu}, ${machine.cores} cores, Node ${machine.node}, load average ${machine.load_average_1m}.`,
  '',
  '| command | median | min | max |',
  '|---|---:|---:|---:|',
  ...rows.map((r) => `| \`${r.name}\` | ${r.median_ms} ms | ${r.min_ms} ms | ${r.max_ms} ms |`),
  '',
].join('\n');
const dir = join(root, 'reports', 'bench');
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, 'cli.json'), `${JSON.stringify(result, null, 2)}\n`);
writeFileSync(join(dir, 'cli.md'), md);
console.log(`wrote ${join('reports', 'bench', 'cli.json')} and cli.md`);
