/**
 * `chatbench load --abandon` end to end, in-process through main(), over real loopback HTTP against
 * the simulator: the client closes a seeded share of the streams after a drawn delay; they are
 * recorded `abandoned` (not errors), counted apart in summary.json and the terminal, and the
 * simulator counts a stream closed by its client for each one it had begun.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { LoadSummarySchema } from '../../src/records/load-summary.js';
import { RequestRecordSchema } from '../../src/records/record.js';
import { createFakeIo } from '../helpers/fake-io.js';
import { startSim, TOKENS } from '../helpers/start-sim.js';

const fixed = (ms: number) => ({ median: ms, p99: ms });
/** Every answer streams for some hundreds of ms: long enough to be left mid-stream. */
const slow = {
  chat: {
    time_scale: 1,
    profiles: {
      default: { pre_answer_ms: fixed(10), first_token_ms: fixed(100), token_ms: fixed(10), answer_sentences: 2 },
    },
  },
};

describe('chatbench load --abandon', () => {
  it('records the streams the client left as abandoned, apart from errors, and the simulator saw those it had begun', async () => {
    const sim = await startSim({ config: slow });
    const out = join(mkdtempSync(join(tmpdir(), 'chatbench-abandon-')), 'run');
    const fake = createFakeIo();
    const code = await main(
      [
        'load',
        '--dataset',
        'datasets/sample.csv',
        '--out',
        out,
        '--base-url',
        sim.baseUrl,
        '--token',
        TOKENS.demo,
        '--rate',
        '20',
        '--duration',
        '1s',
        '--abandon',
        '0.5@50ms-150ms',
        '--seed',
        '3',
      ],
      fake.io,
    );
    expect(code, fake.stderr()).toBe(0);
    const records = readFileSync(join(out, 'results.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => RequestRecordSchema.parse(JSON.parse(l)));
    expect(records).toHaveLength(20);
    const abandoned = records.filter((r) => r.outcome === 'abandoned');
    expect(abandoned.length).toBeGreaterThan(3);
    expect(abandoned.length).toBeLessThan(17);
    expect(records.filter((r) => r.outcome !== 'abandoned').every((r) => r.outcome === 'ok')).toBe(true);
    expect(
      abandoned.every((r) => /^abandoned by the client after \d+ ms \(--abandon\)$/.test(r.error_message ?? '')),
    ).toBe(true);

    const summary = LoadSummarySchema.parse(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')));
    expect(summary.windows.measured.outcomes.abandoned).toBe(abandoned.length);
    expect(summary.windows.measured.rates.errors).toBe(0);
    expect(summary.windows.measured.shares.error_rate).toBe(0);
    expect(summary.banner.join(' ')).toContain(`${abandoned.length} requests were abandoned by the client on purpose`);
    expect(fake.stdout()).toContain(`abandoned ${abandoned.length}`);
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toMatch(
      new RegExp(`\\| abandoned \\(--abandon\\) \\| 0 \\| ${abandoned.length} \\| 0 \\|`),
    );

    // A stream the client left after its first part had come was begun by the server, which counts
    // its close. One left before the server had read the request (a busy machine can delay that read
    // past the earliest abandon, 50 ms: test:stress, once) never began there and is not counted; no
    // other stream is closed by its client. On a quiet machine the two bounds meet.
    const begun = abandoned.filter((r) => r.ttfp_ms !== null).length;
    expect(begun).toBeGreaterThan(0);
    // The server sees a close a moment after the client makes it: wait for it, bounded against a hang.
    for (let i = 0; i < 3_000 && sim.stats().cancelled_streams < begun; i++)
      await new Promise((done) => setTimeout(done, 10));
    expect(sim.stats().cancelled_streams).toBeGreaterThanOrEqual(begun);
    expect(sim.stats().cancelled_streams).toBeLessThanOrEqual(abandoned.length);
  });

  it('refuses a malformed --abandon before anything is sent', async () => {
    const fake = createFakeIo();
    expect(
      await main(
        ['load', '--sim', '--dataset', 'datasets/sample.csv', '--rate', '1', '--duration', '1s', '--abandon', '2@1s'],
        fake.io,
      ),
    ).toBe(2);
    expect(fake.stderr()).toContain('--abandon "2@1s": give SHARE[@AFTER]');
  });
});
