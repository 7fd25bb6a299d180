/**
 * A vitest setup file for `npm run bench:test` (scripts/bench-test.mjs), idle unless
 * CHATBENCH_SUITE_CPU names a file: then, after each test file, one line to that file
 * with the CPU the file's fork spent in it (its own, and its reaped child processes': CLIs, `node -e`)
 * and its wall time, from /proc/self/stat before its first test and after its last. A file's imports
 * come before its first test, so they are not in its line; Chromium's processes outlive the file that
 * used them and are counted by the script, not here.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect } from 'vitest';

const OUT = process.env['CHATBENCH_SUITE_CPU'];
/** Clock ticks a second: Linux's USER_HZ, 100 wherever Node runs. */
const HZ = 100;

/** This process's CPU seconds, its own and its reaped children's (proc(5): utime, stime, cutime, cstime). */
function cpu(): { self: number; children: number } {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return {
    self: (Number(fields[11]) + Number(fields[12])) / HZ,
    children: (Number(fields[13]) + Number(fields[14])) / HZ,
  };
}

let file = '';
let start = { self: 0, children: 0 };
let startedAt = 0;
if (OUT !== undefined && OUT !== '') {
  beforeAll(() => {
    file = expect.getState().testPath ?? '';
    start = cpu();
    startedAt = performance.now();
  });
  afterAll(() => {
    const end = cpu();
    const line = [end.self - start.self, end.children - start.children, (performance.now() - startedAt) / 1000]
      .map((n) => n.toFixed(2))
      .concat(file)
      .join('\t');
    appendFileSync(OUT, `${line}\n`);
  });
}
