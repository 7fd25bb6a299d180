/**
 * Issue 23, the run-file line cap as an option: `--max-run-line-bytes` (or the config key of that
 * name) lowers the cap every reader of a run file applies, and a line past it is refused as
 * `file:line: line longer than N bytes (--max-run-line-bytes)`, exit 2; without it the default holds.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS, runFileLineBytes } from '../../src/util/limits.js';
import { runCli, STACK_LINE, writeCsv } from './helpers.js';

describe('--max-run-line-bytes', () => {
  let dir = '';
  let run = '';
  /** A copy of `run` whose second record holds an answer of 200,000 bytes (its manifest and summary stay small). */
  let long = '';
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'chatbench-line-cap-'));
    run = join(dir, 'run');
    const dataset = writeCsv(dir, [
      ['q1', 'What is the travel policy?', '', '', 'false', 'hr'],
      ['q2', 'How many days of leave?', '', '', 'false', 'hr'],
    ]);
    // The embedded simulator 20× faster than real time: its answers' seconds are not what is tested.
    const setup = ['eval', '--sim', '--dataset', dataset, '--mode', 'full', '--out', run];
    expect((await runCli(setup, { env: { CHATBENCH_TEST_SPEEDUP: '20' } })).code).toBe(0);
    long = join(dir, 'long');
    cpSync(run, long, { recursive: true });
    const [first, second] = readFileSync(join(run, 'results.jsonl'), 'utf8').split('\n');
    writeFileSync(
      join(long, 'results.jsonl'),
      `${first}\n${JSON.stringify({ ...JSON.parse(second!), answer: 'x'.repeat(200_000) })}\n`,
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    { name: 'report DIR', args: () => ['report', long, '--max-run-line-bytes', '100000'] },
    {
      name: 'compare',
      args: () => ['compare', run, long, '--out', join(dir, 'cmp-low'), '--max-run-line-bytes', '100000'],
    },
  ])('$name with the cap lowered below a record line: exit 2 naming file, line and the flag', async ({ args }) => {
    const result = await runCli(args());
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `${join(long, 'results.jsonl')}:2: line longer than 100,000 bytes (--max-run-line-bytes)`,
    );
    expect(result.stderr).not.toMatch(STACK_LINE);
  });

  it('the config key lowers it too', async () => {
    writeFileSync(join(dir, 'chatbench.config.json'), JSON.stringify({ 'max-run-line-bytes': '100KB' }));
    try {
      const result = await runCli(['report', long], { cwd: dir });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('results.jsonl:2: line longer than 100,000 bytes (--max-run-line-bytes)');
    } finally {
      writeFileSync(join(dir, 'chatbench.config.json'), '{}');
    }
  });

  it('the environment lowers it too (CHATBENCH_MAX_RUN_LINE_BYTES)', async () => {
    const result = await runCli(['report', long], { env: { CHATBENCH_MAX_RUN_LINE_BYTES: '100000' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('results.jsonl:2: line longer than 100,000 bytes (--max-run-line-bytes)');
  });

  it('without it the default holds: report and compare read the same runs (exit 0), the cap back at its default', async () => {
    expect((await runCli(['report', long])).code).toBe(0);
    expect(runFileLineBytes()).toBe(LIMITS.runFileLineBytes);
    expect((await runCli(['compare', run, long, '--out', join(dir, 'cmp')])).code).toBe(0);
  });

  it('a size that is not one: exit 2 naming the flag', async () => {
    const result = await runCli(['report', run, '--max-run-line-bytes', 'lots']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--max-run-line-bytes: "lots" is not a size');
  });
});
