/**
 * A load split over three `chatbench load --shard i/3` runs, started together with `--start-at`,
 * against ONE simulator in the test process, then merged (issue 6 §4). The shards run in-process
 * (main() with an io each), sharing nothing but the simulator and the directory: spawning three
 * CLIs, and three more to time their start, cost ~5 CPU s that the split and the merge do not
 * depend on (the bin edge is spawned by test/build/dist.test.ts and test/reliability). The merged
 * run sends the whole plan at the total rate, measured from the records' wall-clock send times, and
 * its load reports and gates are computed on the whole.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { LoadSummarySchema } from '../../src/records/load-summary.js';
import { RequestRecordSchema } from '../../src/records/record.js';
import { GeneratorHealthSchema } from '../../src/records/generator-health.js';
import { createFakeIo } from '../helpers/fake-io.js';
import { startSim, TOKENS } from '../helpers/start-sim.js';

const ROOT = resolve(import.meta.dirname, '../..');
const RATE = 30;
const SECONDS = 1; // ten arrivals a shard already interleave three ways

async function chatbench(args: readonly string[]) {
  const fake = createFakeIo();
  const code = await main([...args], fake.io);
  return { code, stderr: fake.stderr() };
}

describe('chatbench merge of a load split over three shards', () => {
  it(
    'sends the whole schedule once, interleaved exactly, and merges it into one run',
    { timeout: 180_000 },
    async () => {
      const sim = await startSim();
      // The common start leaves the three runs time to read the dataset and plan on a busy machine.
      // A shard that still starts late says so in its generator.json; what is checked below is
      // what chatbench decided (the schedule and its split), not the machine's speed.
      const leadMs = 1500;
      const dir = mkdtempSync(join(tmpdir(), 'chatbench-merge-load-'));
      const startAt = new Date(Date.now() + leadMs).toISOString();
      const args = (i: number) => [
        'load',
        '--base-url',
        sim.baseUrl,
        '--token',
        TOKENS.demo,
        '--dataset',
        join(ROOT, 'datasets/sample.csv'),
        '--set',
        'mini=openai:gpt-4o-mini',
        '--mode',
        'full',
        '--rate',
        String(RATE),
        '--duration',
        `${SECONDS}s`,
        '--shard',
        `${i}/3`,
        '--start-at',
        startAt,
        '--out',
        join(dir, `shard-${i}`),
      ];
      const shards = await Promise.all([1, 2, 3].map((i) => chatbench(args(i))));
      shards.forEach(({ code, stderr }, i) =>
        expect({ shard: i + 1, code, stderr: code === 0 ? '' : stderr }).toEqual({ shard: i + 1, code: 0, stderr: '' }),
      );
      for (const i of [1, 2, 3]) {
        const shard = GeneratorHealthSchema.parse(
          JSON.parse(readFileSync(join(dir, `shard-${i}`, 'generator.json'), 'utf8')),
        );
        expect(shard).toMatchObject({
          planned_arrivals: (RATE * SECONDS) / 3,
          sent: (RATE * SECONDS) / 3,
          dropped: [],
        });
        const offsets = readFileSync(join(dir, `shard-${i}`, 'results.jsonl'), 'utf8')
          .trimEnd()
          .split('\n')
          .map((l) => RequestRecordSchema.parse(JSON.parse(l)).scheduled_offset_ms!);
        // Shard i sends arrivals i−1, i−1+3, …: its schedule is every third slot of the whole one.
        expect(offsets.sort((a, b) => a - b)).toEqual(
          Array.from({ length: (RATE * SECONDS) / 3 }, (_, k) => round3(((3 * k + i - 1) * 1000) / RATE)),
        );
      }

      const fake = createFakeIo({ cwd: dir });
      const code = await main(
        ['merge', 'shard-1', 'shard-2', 'shard-3', '--out', 'merged', '--gate', `offered_per_s >= ${RATE}`],
        fake.io,
      );
      // A shard that a busy machine started late is said (it is true), and nothing else.
      expect(fake.stderr()).toMatch(
        /^(chatbench merge: warning: shard-[123]\/ started its schedule \d+ ms after --start-at\n)*$/,
      );
      expect(code).toBe(0);
      expect(fake.stdout()).toContain('Gates: all 1 passed.');
      const summary = LoadSummarySchema.parse(JSON.parse(readFileSync(join(dir, 'merged', 'summary.json'), 'utf8')));
      expect(summary.windows.measured.sent).toBe(RATE * SECONDS);

      const generator = GeneratorHealthSchema.parse(
        JSON.parse(readFileSync(join(dir, 'merged', 'generator.json'), 'utf8')),
      );
      expect(generator).toMatchObject({
        planned_arrivals: RATE * SECONDS,
        sent: RATE * SECONDS,
        dropped: [],
        interrupted: false,
      });
      const records = readFileSync(join(dir, 'merged', 'results.jsonl'), 'utf8')
        .trimEnd()
        .split('\n')
        .map((l) => RequestRecordSchema.parse(JSON.parse(l)));
      expect(records).toHaveLength(RATE * SECONDS);
      expect(new Set(records.map((r) => r.repeat))).toEqual(
        new Set(Array.from({ length: RATE * SECONDS }, (_, i) => i)),
      );
      expect(records.map((r) => r.scheduled_offset_ms!).sort((a, b) => a - b)).toEqual(
        Array.from({ length: RATE * SECONDS }, (_, k) => round3((k * 1000) / RATE)),
      );
      // Every send is at or after its scheduled time on one clock, and the record says by how much.
      for (const r of records) expect(r.queue_ms).toBeCloseTo(r.sent_offset_ms - r.scheduled_offset_ms!, 2);
    },
  );
});

const round3 = (ms: number) => Math.round(ms * 1000) / 1000;
