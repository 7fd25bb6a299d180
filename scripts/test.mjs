#!/usr/bin/env node
// `npm test`: typecheck (sources and tests, then the viewer's browser app), lint, dist/ brought up to
// date with src/ (tests spawn the compiled CLI; nothing is compiled when it already is), the whole vitest suite; then one plain closing line
// "N passed, N failed[, N skipped]" read from vitest's own JSON results, never counted by hand.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const run = (cmd, args) => spawnSync(cmd, args, { stdio: 'inherit', shell: false }).status ?? 1;
const bin = (name) => join('node_modules', '.bin', name);

const failures = [];
if (run(bin('tsc'), ['--noEmit', '-p', 'tsconfig.json']) !== 0) failures.push('typecheck');
// The viewer's browser app (DOM, JSX) has its own config.
if (run(bin('tsc'), ['--noEmit', '-p', join('src', 'viewer', 'ui', 'tsconfig.json')]) !== 0) failures.push('typecheck (viewer app)');
if (run(bin('eslint'), ['.']) !== 0) failures.push('lint');
if (run(process.execPath, [join('scripts', 'build-cli.mjs')]) !== 0) failures.push('build (dist/)');

const dir = mkdtempSync(join(tmpdir(), 'chatbench-vitest-'));
const resultsFile = join(dir, 'results.json');
const vitestStatus = run(bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${resultsFile}`]);
let results;
try {
  results = JSON.parse(readFileSync(resultsFile, 'utf8'));
} catch (error) {
  console.error(`npm test: vitest wrote no results (${error.message})`);
  process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
if (results) {
  if (vitestStatus !== 0) failures.push('vitest');
  if (failures.length > 0) console.error(`npm test: failed steps: ${failures.join(', ')}`);
  const skipped = results.numPendingTests + results.numTodoTests;
  console.log(`${results.numPassedTests} passed, ${results.numFailedTests} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`);
  process.exitCode = failures.length > 0 ? 1 : 0;
}
