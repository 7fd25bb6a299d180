/**
 * Issue 27 §5, a terminal that fits: at COLUMNS=N every line the end of an eval prints (stdout and
 * stderr) is at most N columns (the demo's output at COLUMNS=100 is this path with the shipped
 * sets); the table keeps its headline figures with sets as rows, and each comparison of sets gets
 * one opening line (its call, from the verdict's pair lines).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { createFakeIo } from '../helpers/fake-io.js';
import { startSim, TOKENS } from '../helpers/start-sim.js';

const columnsOf = (line: string) => [...line].length;

describe('the end of an eval fits $COLUMNS', () => {
  it('three sets at COLUMNS=100: every line fits, headline figures, one line per comparison', async () => {
    // Timings scaled down: the layout is the point, not the latencies.
    const sim = await startSim({ config: { chat: { time_scale: 0.005 } } });
    const dir = mkdtempSync(join(tmpdir(), 'chatbench-width-'));
    const dataset = join(dir, 'q.csv');
    writeFileSync(
      dataset,
      'id,question,expected_documents\nq1,How do I reset my VPN password?,it-vpn-reset\nq2,What is the travel policy?,fin-travel\n',
    );
    const models = join(dir, 'models.json');
    writeFileSync(
      models,
      JSON.stringify({
        sets: [
          { name: 'a-rather-long-set-name-fast', llm_override: { model_version: 'gpt-4o-mini' } },
          { name: 'a-rather-long-set-name-accurate', llm_override: { model_version: 'gpt-4o' } },
          { name: 'a-third-set-with-a-long-name-as-well', llm_override: { model_version: 'gpt-4o' } },
        ],
      }),
    );
    const fake = createFakeIo({ env: { COLUMNS: '100' }, cwd: dir });
    const code = await main(
      [
        'eval',
        '--base-url',
        sim.baseUrl,
        '--token',
        TOKENS.demo,
        '--dataset',
        'q.csv',
        '--sets-file',
        'models.json',
        '--judge',
        'off',
        '--out',
        'run',
      ],
      fake.io,
    );
    expect(code).toBe(0);
    const lines = `${fake.stdout()}\n${fake.stderr()}`.split('\n');
    expect(lines.filter((l) => columnsOf(l) > 100)).toEqual([]);
    expect(fake.stdout()).toMatch(/the headline figures only \(to fit 100 columns\); all \d+ in .*report\.md/);
    expect(fake.stdout()).toMatch(/^a-rather-long-set-name-fast +\d+%/m);
    const openings = fake
      .stdout()
      .split('sets compared')[1]!
      .split('\n')
      .filter((l) => l.startsWith('  ') && l.includes(' vs '));
    expect(openings.length).toBeGreaterThanOrEqual(2);
    for (const line of openings) expect(line).toMatch(/: (no clear winner|best: )/);
  });
});
