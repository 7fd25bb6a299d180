#!/usr/bin/env node
// `npm test`: dist/ brought up to date with src/ (tests spawn the compiled CLI; nothing is compiled
// when it already is), then the whole vitest suite beside the typecheck (sources and tests, then the
// viewer's browser app), lint and the import graph's layers; then one plain closing line
// "N passed, N failed[, N skipped]" read from vitest's own JSON results, never counted by hand.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { constants, setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Buffer } from 'node:buffer';
import { TSC } from './build-cli.mjs';

const run = (cmd, args) => spawnSync(cmd, args, { stdio: 'inherit', shell: false }).status ?? 1;
const bin = (name) => join('node_modules', '.bin', name);

/**
 * Runs a check with its output held back, so checks run side by side print one after another. Each
 * check runs at the lowest CPU priority while the suite runs: it takes the cores only while the
 * suite's forks wait (sockets, schedules, a browser), instead of sharing them with the forks from the
 * start (with four forks, 0.84× the wall time at the median of seven paired runs: docs/development.md,
 * "Session 49"). Once the suite is done the checks get the usual priority back (`restorePriority`):
 * beside other busy processes (`npm run test:stress`) a check left at the lowest one waited ~4
 * minutes for the cores.
 */
function check(name, cmd, args) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], shell: false });
    if (child.pid !== undefined) {
      running.add(child.pid);
      // Right after the spawn, before the check starts its threads and processes: they inherit it.
      setPriorityOf(child.pid, constants.priority.PRIORITY_LOW);
    }
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.once('error', (error) => resolve({ name, status: 1, output: `${error.message}\n` }));
    child.once('close', (status) => {
      running.delete(child.pid);
      resolve({ name, status: status ?? 1, output: Buffer.concat(output).toString('utf8') });
    });
  });
}

/** The checks still running, by process id. */
const running = new Set();

/** Sets one thread's or process's priority; where it cannot (it ended; raising one may need privileges) it stays. */
function setPriorityOf(id, priority) {
  try {
    setPriority(id, priority);
  } catch {
    // Left as it is: the check still runs, at most slower.
  }
}

/**
 * Gives every check still running the usual priority back: on Linux each thread of it and of the
 * processes it started (a priority is a thread's there; /proc lists them), elsewhere the process.
 * Raising a priority needs privileges on Linux (root, as CI runs; a user's shell may not have them).
 */
function restorePriority() {
  const visit = (pid) => {
    let tasks;
    try {
      tasks = readdirSync(`/proc/${pid}/task`);
    } catch {
      setPriorityOf(pid, constants.priority.PRIORITY_NORMAL);
      return;
    }
    for (const tid of tasks) {
      setPriorityOf(Number(tid), constants.priority.PRIORITY_NORMAL);
      let children = '';
      try {
        children = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8');
      } catch {
        // No list of children here: the check's own threads only.
      }
      for (const child of children.split(' ').filter(Boolean)) visit(Number(child));
    }
  };
  for (const pid of running) visit(pid);
}

/** Runs a command with its output shown as it comes; resolves with its exit status. */
const runLive = (cmd, args) =>
  new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: 'inherit', shell: false });
    child.once('error', () => resolve(1));
    child.once('close', (status) => resolve(status ?? 1));
  });

const failures = [];
// dist/ first: the tests spawn the compiled CLI (nothing is compiled when it is up to date).
if (run(process.execPath, [join('scripts', 'build-cli.mjs')]) !== 0) failures.push('build (dist/)');
// The static checks run beside the suite, at the lowest priority (`check`), their output held back and
// printed after it: much of the suite waits on real sockets and timers, and the checks fill those
// waits instead of adding ~25 s.
// The type checks, lint and format keep their tools' own caches under node_modules/.cache/chatbench
// (what each found of each file, keyed by the file's content and the tool's config), so a second run
// checks only what changed: together ~56 CPU s cold, ~13 warm (session 48: the typechecks 3.7,
// eslint 3.1, prettier 4.4, depcruise 1.5), on a 2-core machine where the suite is CPU-bound.
// depcruise keeps its whole result while git sees no change in what it reads (its "metadata"
// strategy; its "content" one re-read every file and saved nothing) and its config is the same
// (depcruiseCache): 7–8.5 CPU s a run → 1.1–1.5 when only tests or docs changed, 5.5 when src/ did.
// It needs git: a tree without .git runs it uncached. A fresh clone (CI) fills the caches on its
// first run; `rm -rf node_modules/.cache` empties them.
const cache = join('node_modules', '.cache', 'chatbench');
// TypeScript 7 (scripts/build-cli.mjs TSC) keeps its own files: it does not read TypeScript 5's.
const tscCache = (name) => ['--incremental', '--tsBuildInfoFile', join(cache, `${name}-7.tsbuildinfo`)];
const contentCache = (name) => ['--cache', '--cache-location', join(cache, name), '--cache-strategy', 'content'];
/**
 * depcruise's cache, in a folder named by its config's bytes: the cache sees a change to the files it
 * reads but not to the rules (a rule added to .dependency-cruiser.mjs passed on a warm cache, session
 * 48). The folders of earlier configs are removed.
 */
function depcruiseCache() {
  const hash = createHash('sha256');
  for (const file of ['.dependency-cruiser.mjs', 'tsconfig.json', 'package-lock.json']) hash.update(readFileSync(file));
  const name = `depcruise-${hash.digest('hex').slice(0, 16)}`;
  if (existsSync(cache))
    for (const old of readdirSync(cache))
      if (old.startsWith('depcruise') && old !== name) rmSync(join(cache, old), { recursive: true, force: true });
  return join(cache, name);
}
const checksDone = Promise.all([
  check('typecheck', process.execPath, [TSC, '--noEmit', '-p', 'tsconfig.json', ...tscCache('tsc')]),
  // The viewer's browser app (DOM, JSX) has its own config.
  check('typecheck (viewer app)', process.execPath, [
    TSC,
    '--noEmit',
    '-p',
    join('src', 'viewer', 'ui', 'tsconfig.json'),
    ...tscCache('tsc-viewer'),
  ]),
  check('lint', bin('eslint'), ['.', ...contentCache('eslint')]),
  // The formatter's verdict only (`npm run format` rewrites): Prettier, .prettierrc.json, .prettierignore.
  check('format', bin('prettier'), ['--check', '.', ...contentCache('prettier')]),
  // The import graph: no cycle, no import running up the layers (.dependency-cruiser.mjs).
  check('imports (layers, cycles)', bin('depcruise'), [
    'src',
    '--config',
    '.dependency-cruiser.mjs',
    ...(existsSync('.git') ? ['--cache', depcruiseCache()] : []),
  ]),
]);

const dir = mkdtempSync(join(tmpdir(), 'chatbench-vitest-'));
const resultsFile = join(dir, 'results.json');
const vitestStatus = await runLive(bin('vitest'), [
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${resultsFile}`,
]);
restorePriority();
for (const { name, status, output } of await checksDone) {
  process.stdout.write(output);
  if (status !== 0) failures.push(name);
}
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
  console.log(
    `${results.numPassedTests} passed, ${results.numFailedTests} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`,
  );
  process.exitCode = failures.length > 0 ? 1 : 0;
}
