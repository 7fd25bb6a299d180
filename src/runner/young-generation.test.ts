import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { availableParallelism } from 'node:os';
import { execPath } from 'node:process';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createRaise, RAISE_AFTER_SCAVENGES, RAISE_WINDOW_MS } from './young-generation.js';

const MODULE = pathToFileURL(resolve(import.meta.dirname, '../../dist/runner/young-generation.js')).href;

// In a child process: the cap is V8's, for the whole process, and must not touch the test runner's.
const SCRIPT = `
import { getHeapSpaceStatistics } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { capYoungGeneration, holdYoungGeneration, noteSending } from ${JSON.stringify(MODULE)};
const semiMiB = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size / 2 / 2 ** 20;
const tick = () => new Promise((r) => setImmediate(r));
// Allocation in many short tasks, as a run allocates (the check runs between tasks), part of it kept a while.
const keep = [];
const churn = async () => { for (let t = 0; t < 50; t += 1) { for (let i = 0; i < 20000; i += 1) { keep.push({ i, s: 'x' + i }); if (keep.length > 40000) keep.splice(0, 20000); } await tick(); } };
if (process.argv[1] === 'cap') capYoungGeneration(4, 4);
if (process.argv[1] === 'raise') capYoungGeneration(4, 8);
if (process.argv[1] === 'raise') noteSending();
await churn();
const capped = semiMiB();
const worker = new Worker('setTimeout(() => {}, 50)', { eval: true });
worker.once('online', holdYoungGeneration);
await new Promise((r) => worker.once('exit', r));
await churn();
process.stdout.write(JSON.stringify({ capped, afterWorker: semiMiB() }));
`;

describe('capYoungGeneration (issue 24)', () => {
  const semiSpaces = (mode: 'cap' | 'raise' | 'none') => {
    const child = spawnSync(execPath, ['--input-type=module', '-e', SCRIPT, mode], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(child.stderr).toBe('');
    return JSON.parse(child.stdout) as { capped: number; afterWorker: number };
  };

  it('stops the semi-spaces at the cap, and holds it after a worker resets V8 flags', () => {
    // The same allocation without the cap grows them past it (V8's default goes to 16 MiB).
    expect(semiSpaces('none').afterWorker).toBeGreaterThan(8);
    // The gc observer's callback and a worker's 'online' come as tasks: on a busy machine one more
    // scavenge may come first and double the space once past the cap (the module says so), never more.
    const { capped, afterWorker } = semiSpaces('cap');
    expect(capped).toBeLessThanOrEqual(8);
    expect(afterWorker).toBeLessThanOrEqual(8);
  });

  it('raises the cap to the busy one when scavenges come often, and holds that (session 36)', () => {
    // The churn allocates ~1 GB in a second or two: dozens of scavenges, past RAISE_AFTER_SCAVENGES.
    const { capped, afterWorker } = semiSpaces('raise');
    expect(capped).toBeGreaterThan(4);
    expect(capped).toBeLessThanOrEqual(16); // 8, or one doubling past it on a busy machine (as above)
    expect(afterWorker).toBeLessThanOrEqual(16);
  });
});

describe('createRaise (session 36)', () => {
  const minor = (startTime: number) => ({ startTime, detail: { kind: 1 } });
  const major = (startTime: number) => ({ startTime, detail: { kind: 4 } });

  it('says yes once, at the scavenge that completes RAISE_AFTER_SCAVENGES within RAISE_WINDOW_MS', () => {
    const raise = createRaise(4, 8);
    const gap = RAISE_WINDOW_MS / (RAISE_AFTER_SCAVENGES - 1);
    const answers = Array.from({ length: RAISE_AFTER_SCAVENGES + 3 }, (_, i) => raise([minor(i * gap)]));
    expect(answers.indexOf(true)).toBe(RAISE_AFTER_SCAVENGES - 1);
    expect(answers.filter(Boolean)).toHaveLength(1);
  });

  it('counts only the scavenges from the first send on (a warm-up allocates in a burst)', () => {
    const raise = createRaise(4, 8);
    const burst = Array.from({ length: 40 }, (_, i) => minor(i));
    expect(raise(burst, 1_000)).toBe(false);
    expect(raise([minor(60_000)], 1_000)).toBe(false);
  });

  it('says no to scavenges further apart, to full collections, and when the busy cap is no higher', () => {
    const slow = createRaise(4, 8);
    const gap = RAISE_WINDOW_MS / (RAISE_AFTER_SCAVENGES - 1) + 1;
    expect(Array.from({ length: 40 }, (_, i) => slow([minor(i * gap)])).some(Boolean)).toBe(false);
    const majors = createRaise(4, 8);
    expect(majors(Array.from({ length: 40 }, (_, i) => major(i)))).toBe(false);
    const same = createRaise(4, 4);
    expect(same(Array.from({ length: 40 }, (_, i) => minor(i)))).toBe(false);
  });
});

// V8 prints one `scavenge[...]` line per scavenging task (--trace-parallel-scavenge) and one
// `Scavenge` line per scavenge (--trace-gc): as many of each when every scavenge runs alone.
const TASKS_SCRIPT = `
import { Worker } from 'node:worker_threads';
import { capYoungGeneration, holdYoungGeneration } from ${JSON.stringify(MODULE)};
const keep = [];
const churn = () => { for (let i = 0; i < 400000; i += 1) { keep.push({ i, s: 'x' + i }); if (keep.length > 60000) keep.splice(0, 30000); } };
if (process.argv[1] === 'cap') capYoungGeneration(4);
churn();
const worker = new Worker('setTimeout(() => {}, 50)', { eval: true });
if (process.argv[1] === 'cap') worker.once('online', holdYoungGeneration);
await new Promise((r) => worker.once('exit', r));
process.stdout.write('--worker gone--\\n');
churn();
`;

describe('scavenges on the collecting thread alone (issue 24, session 33)', () => {
  const tasks = (mode: 'cap' | 'none') => {
    const child = spawnSync(
      execPath,
      ['--trace-gc', '--trace-parallel-scavenge', '--input-type=module', '-e', TASKS_SCRIPT, mode],
      { encoding: 'utf8', timeout: 20_000 },
    );
    expect(child.stderr).toBe('');
    const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;
    return child.stdout.split('--worker gone--').map((part) => ({
      scavenges: count(part, /: Scavenge /g),
      tasks: count(part, /scavenge\[/g),
    }));
  };

  it('runs every scavenge as one task, before and after a worker resets V8 flags', () => {
    for (const part of tasks('cap')) {
      expect(part.scavenges).toBeGreaterThan(0);
      expect(part.tasks).toBe(part.scavenges);
    }
  });

  it.skipIf(availableParallelism() < 2)('(V8 alone splits them on a machine with two cores or more)', () => {
    const [before] = tasks('none');
    expect(before!.tasks).toBeGreaterThan(before!.scavenges);
  });
});
