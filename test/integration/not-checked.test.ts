/**
 * Issue 27 §3: a question that expects nothing is "not checked", never a 100% pass rate — in
 * summary.json, report.md, the terminal table, junit.xml and a gate on pass_rate — from a real eval
 * against the simulator.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { loadCorpus, startSimulator } from '../../src/sim/index.js';
import { createFakeIo } from '../helpers/fake-io.js';
import { TOKENS } from '../helpers/start-sim.js';

describe('eval: questions that expect nothing', () => {
  it('reports the pass rate as not checked and fails a pass_rate gate saying so', async () => {
    const sim = await startSimulator({ config: { chat: { time_scale: 0.003 } }, corpus: await loadCorpus() });
    try {
      const dir = mkdtempSync(join(tmpdir(), 'chatbench-unchecked-'));
      writeFileSync(
        join(dir, 'q.csv'),
        'id,question\nfrance,What is the capital of France?\npto,How many days of paid time off do employees get?\n',
      );
      const fake = createFakeIo({ cwd: dir, env: { COLUMNS: '100' } });
      const code = await main(
        [
          'eval',
          '--base-url',
          sim.baseUrl,
          '--token',
          TOKENS.demo,
          '--dataset',
          'q.csv',
          '--judge',
          'off',
          '--gate',
          'pass_rate >= 0.5',
          '--out',
          'run',
        ],
        fake.io,
      );
      expect(fake.stderr()).not.toMatch(/internal error/);
      expect(code).toBe(1);
      const summary = JSON.parse(readFileSync(join(dir, 'run', 'summary.json'), 'utf8'));
      expect(summary.groups[0]).toMatchObject({ pass_rate: null, unchecked_questions: 2 });
      expect(summary.banner.join('\n')).toMatch(/None of the 2 questions expects anything/);
      const records = readFileSync(join(dir, 'run', 'results.jsonl'), 'utf8')
        .trim()
        .split('\n');
      expect(records.map((line) => JSON.parse(line).scores.checked)).toEqual([false, false]);
      expect(readFileSync(join(dir, 'run', 'report.md'), 'utf8')).toMatch(/pass rate \[95% CI\][^\n]*not checked/);
      const junit = readFileSync(join(dir, 'run', 'junit.xml'), 'utf8');
      expect(junit).toMatch(/<skipped message="not checked: the question expects nothing[^"]*" type="not_checked"/);
      const out = fake.stdout() + fake.stderr();
      expect(out).toMatch(/not checked/);
      expect(out).toMatch(/pass_rate >= 0\.5 failed [^\n]*not checked: none of its 2 questions expects anything/);
      expect(out).not.toMatch(/pass rate[^\n]*100%/);
    } finally {
      await sim.close();
    }
  });
});
