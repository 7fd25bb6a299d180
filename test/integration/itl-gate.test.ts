/**
 * Issue 27 §6: the ITL is a figure a gate can name (`itl_ms.p95`, summary.json's `answer_gap_ms`):
 * a real streamed eval against the in-process simulator passes a gate its answer gaps meet and
 * fails one they cannot, the reason naming the pooled value.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { loadCorpus, startSimulator } from '../../src/sim/index.js';
import { createFakeIo } from '../helpers/fake-io.js';
import { TOKENS } from '../helpers/start-sim.js';

describe('eval: a gate on the ITL', () => {
  it('passes when the pooled answer gaps meet it and fails, naming the value, when they cannot', async () => {
    const sim = await startSimulator({ config: { chat: { time_scale: 0.003 } }, corpus: await loadCorpus() });
    try {
      const dir = mkdtempSync(join(tmpdir(), 'chatbench-itl-gate-'));
      writeFileSync(join(dir, 'q.csv'), 'id,question\npto,How many days of paid time off do employees get?\n');
      const evalWith = async (gate: string, out: string) => {
        const fake = createFakeIo({ cwd: dir, env: { COLUMNS: '100' } });
        const argv = ['eval', '--base-url', sim.baseUrl, '--token', TOKENS.demo, '--dataset', 'q.csv'];
        const code = await main([...argv, '--judge', 'off', '--gate', gate, '--out', out], fake.io);
        expect(fake.stderr()).not.toMatch(/internal error/);
        return { code, out: fake.stdout() + fake.stderr() };
      };

      // A gap never lasts a minute: met.
      const met = await evalWith('itl_ms.p95 <= 60000', 'met');
      expect(met.code).toBe(0);
      const summary = JSON.parse(readFileSync(join(dir, 'met', 'summary.json'), 'utf8'));
      const itl = summary.groups[0].answer_gap_ms;
      expect(itl.count).toBeGreaterThan(0);
      expect(readFileSync(join(dir, 'met', 'verdict.json'), 'utf8')).toMatch(
        /"text": "itl_ms\.p95 <= 60000",\s+"detail": "answer_gap_ms\.p95 [\d.,]+ ms <= 60,000 ms"/,
      );

      // No gap lasts a minute either: broken, the value in the reason and in verdict.json.
      const broken = await evalWith('itl_ms.p50 >= 60000', 'broken');
      expect(broken.code).toBe(1);
      expect(broken.out).toMatch(/answer_gap_ms\.p50 >= 60000 failed for set \S+: [\d.,]+ ms/);
      const verdict = readFileSync(join(dir, 'broken', 'verdict.json'), 'utf8');
      expect(verdict).toMatch(/"passed": false,[^}]*"detail": "answer_gap_ms\.p50 [\d.,]+ ms < 60,000 ms"/);
    } finally {
      await sim.close();
    }
  });
});
