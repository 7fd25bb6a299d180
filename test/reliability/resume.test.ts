/**
 * Issue 7 §2: a run killed with SIGKILL mid-run (the real CLI process) is continued with
 * `--resume DIR`: the torn last line is cut, only the missing planned keys are sent, and the final
 * run has every planned key exactly once, with the reports of an uninterrupted run. Plus the
 * refusals: other inputs than the run's, and a directory that holds no run.
 */
import { appendFileSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSim, TOKENS } from '../helpers/start-sim.js';
import { plannedKeys, readRunRecords, runCli, scratch, writeCsv, STACK_LINE } from './helpers.js';
import { completeLines, spawnCli, waitFor } from '../helpers/spawn-cli.js';

/** 0.1–0.2 s per request: a 60-request run at 3 in flight lasts some 3 s, long enough to kill mid-way. */
const TIME_SCALE = 0.05;

function questions(n: number): string[][] {
  return Array.from({ length: n }, (_, i) => [
    `q${i}`,
    `How many days of paid time off do employees get? (${i})`,
    'hr-pto-policy',
    '',
    'false',
    `c${i % 3}`,
  ]);
}

describe('--resume after SIGKILL', () => {
  it(
    'continues a killed run to exactly the planned keys, each once, with the reports of an uninterrupted run',
    { timeout: 120_000 },
    async () => {
      const sim = await startSim({ config: { chat: { time_scale: TIME_SCALE } } });
      const dir = scratch();
      const dataset = writeCsv(dir, questions(30));
      const out = join(dir, 'run');
      const args = [
        'eval',
        '--base-url',
        sim.baseUrl,
        '--dataset',
        dataset,
        '--set',
        'a=openai:gpt-4o-mini',
        '--set',
        'b=openai:gpt-4o',
        '--concurrency',
        '3',
        '--out',
        out,
      ];
      const first = spawnCli(args, { CHATBENCH_TOKEN: TOKENS.demo });
      const results = join(out, 'results.jsonl');
      await waitFor(() => completeLines(results) >= 6, '6 records before the kill');
      first.child.kill('SIGKILL');
      expect((await first.exited).signal).toBe('SIGKILL');
      // A crash mid-write leaves a torn line; make sure there is one to cut.
      appendFileSync(results, '{"record_version":1,"key":"q9|a|stream|0","outcome":"o');
      const before = completeLines(results);
      expect(before).toBeGreaterThanOrEqual(6);
      expect(readdirSync(out)).not.toContain('summary.json');

      // The kill is the process edge; the resume reads what it left, in-process (a cold CLI process
      // costs more than the whole resumed run) and with more in flight (the plan is the same).
      const resumeArgs = args.filter((x, i) => x !== '--out' && args[i - 1] !== '--out');
      resumeArgs[resumeArgs.indexOf('--concurrency') + 1] = '10';
      const resumed = await runCli([...resumeArgs, '--resume', out], { env: { CHATBENCH_TOKEN: TOKENS.demo } });
      expect(resumed.stderr).not.toMatch(STACK_LINE);
      expect(resumed.code).toBe(0);
      expect(resumed.stderr).toMatch(
        new RegExp(
          `resuming .*: ${before} requests recorded \\(a torn last line of \\d+ bytes was cut\\), ${60 - before} to go`,
        ),
      );

      const records = readRunRecords(out); // throws on any line that is not a complete record
      const planned = await plannedKeys({
        datasetPath: dataset,
        setFlags: ['a=openai:gpt-4o-mini', 'b=openai:gpt-4o'],
        mode: 'stream',
      });
      expect(records.map((r) => r.key).sort()).toEqual([...planned].sort());
      expect(records.every((r) => r.outcome === 'ok')).toBe(true);
      // Sent twice: at most the 3 in flight at the kill, and the few whose records were still on their
      // way to the disk (a lane hands its record to the writer and takes the next request).
      expect(sim.stats().requests).toBeLessThanOrEqual(60 + 2 * 3);

      // The same reports as an uninterrupted run of the same plan.
      const reference = join(dir, 'reference');
      const whole = await runCli([...args.slice(0, -3), '10', '--out', reference], {
        env: { CHATBENCH_TOKEN: TOKENS.demo },
      }); // concurrency 10: only the form is compared
      expect(whole.code).toBe(0);
      expect(readdirSync(out).sort()).toEqual(readdirSync(reference).sort());
      const shape = (run: string) => {
        const summary = JSON.parse(readFileSync(join(run, 'summary.json'), 'utf8'));
        return {
          outcomes: summary.run.outcomes,
          // Sets are listed in first-seen order (summarize.ts), which completion order decides.
          groups: summary.groups.map((g: { set: string; mode: string }) => `${g.set}/${g.mode}`).sort(),
          keys: Object.keys(summary).sort(),
          csvRows: readFileSync(join(run, 'results.csv'), 'utf8').trim().split('\n').length,
          junitCases: (readFileSync(join(run, 'junit.xml'), 'utf8').match(/<testcase /g) ?? []).length,
          // The worst questions' headings name questions, which differ with the answers.
          mdHeadings: readFileSync(join(run, 'report.md'), 'utf8')
            .split('\n')
            .filter((l) => l.startsWith('#') && !/^### \d+\. /.test(l)),
        };
      };
      expect(shape(out)).toEqual(shape(reference));
    },
  );
});

describe('--resume refuses what it cannot continue, exit 2, nothing sent', () => {
  it('a changed dataset, another mode, other sets, --out elsewhere, and a directory without a run', async () => {
    const sim = await startSim();
    const dir = scratch();
    const dataset = writeCsv(dir, questions(2));
    const out = join(dir, 'run');
    const base = [
      'eval',
      '--base-url',
      sim.baseUrl,
      '--token',
      TOKENS.demo,
      '--dataset',
      dataset,
      '--set',
      'a=openai:gpt-4o-mini',
    ];
    expect((await runCli([...base, '--out', out])).code).toBe(0);
    const sent = sim.stats().requests;

    const again = await runCli([...base, '--resume', out]);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/2 requests recorded, 0 to go/);
    expect(readRunRecords(out)).toHaveLength(2);

    const cases: Array<[string[], RegExp]> = [
      [['--mode', 'both'], /^chatbench: --resume .*run: --mode was stream, now both$/m],
      [['--set', 'b=openai:gpt-4o'], /--resume .*run: the sets or flags give other requests than the run planned/],
      [['--out', join(dir, 'elsewhere')], /--out and --resume conflict/],
    ];
    for (const [extra, message] of cases) {
      const run = await runCli([...base, ...extra, '--resume', out]);
      expect({ extra, code: run.code, match: message.test(run.stderr), trace: STACK_LINE.test(run.stderr) }).toEqual({
        extra,
        code: 2,
        match: true,
        trace: false,
      });
    }
    writeFileSync(dataset, `${readFileSync(dataset, 'utf8')}"q9","Another question?","","","false","x"\n`);
    const changed = await runCli([...base, '--resume', out]);
    expect(changed.code).toBe(2);
    expect(changed.stderr).toMatch(
      /--resume .*run: the dataset differs from the run's \(.*questions\.csv: sha256 [0-9a-f]{12}…/,
    );
    const empty = await runCli([...base, '--resume', join(dir, 'nothing')]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/--resume .*nothing: no manifest\.json there/);
    expect(sim.stats().requests).toBe(sent);
  });
});
