/**
 * Issue 12, merge and load: `merge` checks every record against the record schema and against its
 * shard's part of the plan, so a record with `ttfp_ms: -1e308`, a key in no shard's plan, or a
 * record moved from one shard's results.jsonl to another's is refused (exit 2, nothing written).
 * A load run killed with SIGKILL leaves its records and manifest but no generator.json; `report`
 * then computes the rates over the run's actual end, not the planned one, and says first that the
 * run is incomplete.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoadSummarySchema } from '../../src/records/load-summary.js';
import { fullAnswer, startHostileServer } from '../helpers/hostile-server.js';
import { runCli, scratch, STACK_LINE, writeCsv } from './helpers.js';

const answer = () => ({ headers: { 'content-type': 'application/json' }, body: fullAnswer({ answer: 'Fine.' }) });
const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '');
const write = (file: string, records: readonly string[]) => writeFileSync(file, records.map((l) => `${l}\n`).join(''));
/** The line of `key` first, the others after (records are written in the order they completed). */
const withFirst = (file: string, key: string): string[] => {
  const all = lines(file);
  const at = all.findIndex((l) => (JSON.parse(l) as { key: string }).key === key);
  expect(at).not.toBe(-1);
  return [all[at]!, ...all.filter((_, i) => i !== at)];
};

describe("merge refuses records that are not their shard's", () => {
  let root: string;
  let baseUrl: string;
  beforeAll(async () => {
    baseUrl = (await startHostileServer(answer, afterAll)).baseUrl;
    root = mkdtempSync(join(tmpdir(), 'chatbench-rel-'));
    afterAll(() => rmSync(root, { recursive: true, force: true }));
    const dataset = writeCsv(
      root,
      Array.from({ length: 4 }, (_, i) => [`q${i}`, `Question ${i}?`, '', '', 'false', 'x']),
    );
    for (const i of [1, 2]) {
      const evalRun = await runCli([
        'eval',
        '--base-url',
        baseUrl,
        '--token',
        'tok-1234',
        '--dataset',
        dataset,
        '--mode',
        'full',
        '--shard',
        `${i}/2`,
        '--out',
        join(root, `eval-${i}`),
      ]);
      expect(evalRun.code).toBe(0);
      const loadRun = await runCli([
        'load',
        '--base-url',
        baseUrl,
        '--token',
        'tok-1234',
        '--dataset',
        dataset,
        '--mode',
        'full',
        '--rate',
        '100',
        '--requests',
        '8',
        '--shard',
        `${i}/2`,
        '--out',
        join(root, `load-${i}`),
      ]);
      expect(loadRun.code).toBe(0);
    }
  });

  /** Copies of the two shards of `kind`, tampered with by `tamper`; merged. */
  async function mergeTampered(kind: 'eval' | 'load', tamper: (s1: string, s2: string) => void) {
    const dir = scratch();
    const [s1, s2] = [join(dir, 's1'), join(dir, 's2')];
    cpSync(join(root, `${kind}-1`), s1, { recursive: true });
    cpSync(join(root, `${kind}-2`), s2, { recursive: true });
    tamper(join(s1, 'results.jsonl'), join(s2, 'results.jsonl'));
    const out = join(dir, 'merged');
    const run = await runCli(['merge', s1, s2, '--out', out]);
    return { run, out };
  }

  it.each([
    [
      'eval',
      'ttfp_ms: -1e308',
      (s1: string) => {
        const [first, ...rest] = lines(s1);
        write(s1, [JSON.stringify({ ...JSON.parse(first!), ttfp_ms: -1e308 }), ...rest]);
      },
      /s1\/results\.jsonl:1: ttfp_ms: Too small: expected number to be >=0/,
    ],
    [
      'eval',
      "a key in no shard's plan",
      (s1: string) => {
        const [first, ...rest] = lines(s1);
        write(s1, [
          first!,
          JSON.stringify({ ...JSON.parse(first!), question_id: 'q99', key: 'q99|default|full|0' }),
          ...rest,
        ]);
      },
      /record q99\|default\|full\|0 is in no shard's plan: question "q99" is not in the run's dataset/,
    ],
    [
      'eval',
      'a record moved between shards',
      (s1: string, s2: string) => {
        const [first, ...rest] = withFirst(s1, 'q0|default|full|0');
        write(s1, rest);
        write(s2, [...lines(s2), first!]);
      },
      /record q0\|default\|full\|0 belongs to shard 1\/2, not 2\/2: moved between shards\?/,
    ],
    [
      'load',
      'a record moved between shards',
      (s1: string, s2: string) => {
        const [first, ...rest] = withFirst(s1, 'q0|default|full|0');
        write(s1, rest);
        write(s2, [...lines(s2), first!]);
      },
      /record q0\|default\|full\|0 belongs to shard 1\/2, not 2\/2: moved between shards\?/,
    ],
    [
      'load',
      "a record whose question is not its arrival's",
      (s1: string) => {
        const [first, ...rest] = withFirst(s1, 'q0|default|full|0');
        write(s1, [JSON.stringify({ ...JSON.parse(first!), question_id: 'q1', key: 'q1|default|full|0' }), ...rest]);
      },
      /record q1\|default\|full\|0 is in no shard's plan: arrival 0 asks "q0", not "q1"/,
    ],
  ] as const)('%s: %s → exit 2, nothing written', async (kind, _name, tamper, message) => {
    const { run, out } = await mergeTampered(kind, tamper);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(STACK_LINE);
    expect(existsSync(out)).toBe(false);
  });

  it('the untampered shards merge', async () => {
    for (const kind of ['eval', 'load'] as const) expect((await mergeTampered(kind, () => undefined)).run.code).toBe(0);
  });
});

describe('a load run killed with SIGKILL, then `report`', () => {
  it("computes the rates over the run's actual end and says first that the run is incomplete", async () => {
    const server = await startHostileServer(answer);
    const dir = scratch();
    const dataset = writeCsv(dir, [['q1', 'Hello?', '', '', 'false', 'x']]);
    const out = join(dir, 'run');
    expect(
      (
        await runCli([
          'load',
          '--base-url',
          server.baseUrl,
          '--token',
          'tok-1234',
          '--dataset',
          dataset,
          '--mode',
          'full',
          '--rate',
          '50',
          '--duration',
          '600ms',
          '--out',
          out,
        ])
      ).code,
    ).toBe(0);
    // What SIGKILL at 0.3 s leaves: the records sent before it (the last one torn), the manifest, no generator.json.
    const results = join(out, 'results.jsonl');
    const early = lines(results).filter(
      (l) => (JSON.parse(l) as { scheduled_offset_ms: number }).scheduled_offset_ms < 300,
    );
    writeFileSync(results, `${early.join('\n')}\n{"record_version":1,"key":"q1|def`);
    unlinkSync(join(out, 'generator.json'));
    const report = await runCli(['report', out]);
    expect(report.code).toBe(0);
    const summary = LoadSummarySchema.parse(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')));
    // The run's actual end: its last recorded request's end (capped at the planned 600 ms), never the plan's.
    const kept = early.map((l) => JSON.parse(l) as { scheduled_offset_ms: number; response_ms: number });
    const end = Math.min(600, Math.max(...kept.map((r) => r.scheduled_offset_ms + r.response_ms)));
    expect(summary.run).toMatchObject({ incomplete: true, requests: 15, duration_ms: end });
    expect(summary.windows.measured.rates.sent).toBeCloseTo(15 / (end / 1000), 6);
    expect(summary.warning).toMatch(
      /^Warning: this run is incomplete: it has no generator\.json \(its process was killed, or is still running\)\. The figures cover its 15 recorded requests, over the \d+\.\d s up to the last of them of the planned 0\.6 s\./,
    );
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain('> **Warning: this run is incomplete');
  });
});
