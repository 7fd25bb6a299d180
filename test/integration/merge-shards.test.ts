/**
 * `chatbench merge` end to end (issue 6 §4): four `chatbench eval --shard i/4` runs at once
 * against ONE simulator, merged, against a single run of the same plan. The shards run in-process
 * (main() with its own io each): a shard shares nothing with another but the simulator and the
 * directory, and spawning four CLIs cost ~6 CPU s of module compile and start-up that the merge
 * does not depend on (the bin edge is spawned by test/build/dist.test.ts and test/reliability). The
 * reference run uses a second simulator with the same seed: the simulator draws each answer's
 * randomness from the message and how often it has seen it, so on a shared simulator the
 * reference would get the second answers to every question. Everything deterministic must be
 * equal (keys, outcomes, citations, scores); latencies differ by nature, so the merged percentiles
 * are checked against the merged records themselves.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareKeys } from '../../src/app/merge/merge-runs.js';
import { main } from '../../src/cli/main.js';
import { latencyStats } from '../../src/metrics/stats.js';
import { RequestRecordSchema, type RequestRecord } from '../../src/records/record.js';
import { SummarySchema } from '../../src/records/summary.js';
import { createFakeIo } from '../helpers/fake-io.js';
import { startSim, TOKENS } from '../helpers/start-sim.js';

const ROOT = resolve(import.meta.dirname, '../..');
/** 34 questions of the shipped sample that are not conversation turns (one spans two lines; the last two expect no answer): 9, 9, 8, 8 per shard. */
function sampleSlice(dir: string): string {
  const [header, ...rows] = readFileSync(join(ROOT, 'datasets/sample.csv'), 'utf8').trimEnd().split('\n');
  const alone = rows.filter((row) => !row.endsWith(',internal_search'));
  const path = join(dir, 'questions.csv');
  writeFileSync(path, `${[header, ...alone.slice(0, 33), ...alone.slice(-2)].join('\n')}\n`);
  return path;
}
const lines = (dir: string) => readFileSync(join(dir, 'results.jsonl'), 'utf8').trimEnd().split('\n');
const records = (dir: string): RequestRecord[] => lines(dir).map((l) => RequestRecordSchema.parse(JSON.parse(l)));
const summary = (dir: string) => SummarySchema.parse(JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')));

async function cli(args: string[], cwd: string) {
  const fake = createFakeIo({ cwd });
  const code = await main(args, fake.io);
  return { code, stdout: fake.stdout(), stderr: fake.stderr() };
}

describe('chatbench merge of four shard runs', () => {
  it(
    'gives the keys, outcomes, citations and scores of one process, and percentiles of its own records',
    { timeout: 180_000 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'chatbench-merge-'));
      const [shared, reference] = [await startSim(), await startSim()];
      const common = [
        '--token',
        TOKENS.demo,
        '--dataset',
        sampleSlice(dir),
        '--set',
        'mini=openai:gpt-4o-mini',
        '--concurrency',
        '4',
      ];

      const shards = await Promise.all(
        [1, 2, 3, 4].map((i) =>
          cli(
            ['eval', '--base-url', shared.baseUrl, ...common, '--shard', `${i}/4`, '--out', join(dir, `shard-${i}`)],
            dir,
          ),
        ),
      );
      shards.forEach(({ code, stderr }, i) =>
        expect({ shard: i + 1, code, stderr: code === 0 ? '' : stderr }).toEqual({ shard: i + 1, code: 0, stderr: '' }),
      );
      const one = await cli(['eval', '--base-url', reference.baseUrl, ...common, '--out', 'one'], dir);
      expect(one.code).toBe(0);

      const merged = await cli(['merge', 'shard-3', 'shard-1', 'shard-4', 'shard-2', '--out', 'merged'], dir);
      expect(merged.stderr).toBe('');
      expect(merged.code).toBe(0);
      expect(merged.stdout).toMatch(
        /merged 34 records of 4 shards: 1\/4 shard-1\/ \(9\), 2\/4 shard-2\/ \(9\), 3\/4 shard-3\/ \(8\), 4\/4 shard-4\/ \(8\)/,
      );

      // The merged file is every shard line, unchanged, sorted by key.
      const mergedLines = lines(join(dir, 'merged'));
      const shardLines = [1, 2, 3, 4].flatMap((i) => lines(join(dir, `shard-${i}`)));
      expect([...mergedLines].sort()).toEqual([...shardLines].sort());
      const got = records(join(dir, 'merged'));
      const keys = got.map((r) => r.key);
      expect(keys).toEqual([...keys].sort(compareKeys));

      // Exactly the single process's keys, and per key the same outcome, citations and scores.
      const want = new Map(records(join(dir, 'one')).map((r) => [r.key, r]));
      expect(new Set(keys)).toEqual(new Set(want.keys()));
      expect(keys).toHaveLength(34);
      const deterministic = (r: RequestRecord) => ({
        key: r.key,
        outcome: r.outcome,
        cited: r.cited_document_ids,
        top: r.top_document_ids,
        answer: r.answer,
        scores: r.scores,
      });
      expect(got.map(deterministic)).toEqual(got.map((r) => deterministic(want.get(r.key)!)));

      const [m, o] = [summary(join(dir, 'merged')), summary(join(dir, 'one'))];
      expect(m.run.outcomes).toEqual(o.run.outcomes);
      expect(m.run.requests).toBe(34);
      expect(m.groups.map((g) => ({ scores: g.scores, pass_rate: g.pass_rate, outcomes: g.outcomes }))).toEqual(
        o.groups.map((g) => ({ scores: g.scores, pass_rate: g.pass_rate, outcomes: g.outcomes })),
      );

      // Percentiles are those of all the merged records, not an average of the shards' percentiles.
      const ok = got.filter((r) => r.outcome === 'ok');
      for (const figure of ['ttfp_ms', 'ttft_ms', 'total_ms'] as const) {
        expect(m.groups[0]!.latency[figure]).toEqual(
          latencyStats(ok.flatMap((r) => (r[figure] === null ? [] : [r[figure]]))),
        );
      }

      const manifest = JSON.parse(readFileSync(join(dir, 'merged', 'manifest.json'), 'utf8'));
      expect(manifest).toMatchObject({ command: 'eval', shard: null, planned_requests: 34, planned_total: 34 });
      expect(
        manifest.merged_from.map((f: { dir: string; shard: { index: number } }) => [f.dir, f.shard.index]),
      ).toEqual([
        ['shard-1/', 1],
        ['shard-2/', 2],
        ['shard-3/', 3],
        ['shard-4/', 4],
      ]);

      // Deterministic: the same shards in another order give the same bytes.
      const again = await cli(['merge', 'shard-1', 'shard-2', 'shard-3', 'shard-4', '--out', 'merged-again'], dir);
      expect(again.code).toBe(0);
      for (const file of ['results.jsonl', 'summary.json', 'report.md', 'results.csv']) {
        expect(readFileSync(join(dir, 'merged-again', file), 'utf8')).toBe(
          readFileSync(join(dir, 'merged', file), 'utf8'),
        );
      }
    },
  );
});
