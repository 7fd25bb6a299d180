/**
 * Issue 11, "a comparison never finds what is not there": the same plan run twice against the
 * simulator with the same seed (the same answers, the same drawn delays), 20 times, and each pair
 * compared. Nothing changed between two runs of a pair, so
 * every significant change reported is a false discovery; the list of significant changes holds
 * the false discovery rate at 5% (Benjamini–Hochberg), so over the 20 comparisons the mean false
 * discovery proportion must stay at or under 5%. Real client, runner and simulator over loopback,
 * warmed up and timed as eval does (the timing uncertainty included); records go straight into the
 * comparison's collector (no files) to keep the test short.
 */
import { describe, expect, it } from 'vitest';
import { scoreRecord } from '../../src/app/shared/score-record.js';
import { createChatClient } from '../../src/client/chat-client.js';
import { compareRuns, createRunCollector, FDR_Q } from '../../src/compare/index.js';
import { buildPlan } from '../../src/plan/build-plan.js';
import { runPlan, type UnscoredRecord } from '../../src/runner/index.js';
import { watchLoopDelay } from '../../src/runner/loop-delay.js';
import { warmUp } from '../../src/runner/warm-up.js';
import type { LoopDelay } from '../../src/records/generator-health.js';
import { readDataset } from '../../src/dataset/index.js';
import { startSim } from '../helpers/start-sim.js';

const REPETITIONS = 20;
const QUESTIONS = 8;
const CONCURRENCY = 3;
const spread = (median: number) => ({ median, p99: median * 3 });

describe('an identical rerun compared with itself', () => {
  it(
    `reports no more false discoveries than the nominal ${FDR_Q * 100}% over ${REPETITIONS} comparisons`,
    { timeout: 180_000 },
    async () => {
      const dataset = await readDataset({ path: 'datasets/sample.csv', cwd: process.cwd() });
      const rows = dataset.rows.filter((r) => r.expectations.expected_document_ids.length > 0).slice(0, QUESTIONS);
      const plan = buildPlan({
        rows,
        sets: [{ name: 'default', llm_override: null, llm_overrides: null, multi: false }],
        defaults: {},
        mode: 'stream',
        repeat: 1,
      });
      const expectations = new Map(plan.map((p) => [p.key, p.expectations]));
      const proportions: number[] = [];
      let tests = 0;
      const found: string[] = [];
      for (let rep = 0; rep < REPETITIONS; rep++) {
        // The same seed twice: a simulator for each run, both with one seed, so both draw the same
        // answers and delays. The two runs go side by side, their requests interleaved, so whatever
        // the machine does to one it does to the other: nothing differs but chance. Delays long
        // enough that the simulator's own work hides inside them (the first part), short enough that
        // a run takes tens of milliseconds.
        const config = {
          chat: {
            time_scale: 1,
            ttfp_ms: spread(8),
            profiles: {
              default: {
                pre_answer_ms: spread(2),
                first_token_ms: spread(2),
                token_ms: spread(0.1),
                answer_sentences: 1,
              },
            },
          },
        };
        const sims = await Promise.all([startSim({ seed: 100 + rep, config }), startSim({ seed: 100 + rep, config })]);
        const clients = sims.map((sim) =>
          createChatClient({
            baseUrl: sim.baseUrl,
            token: 'onyx_pat_chatbench_demo',
            connections: CONCURRENCY,
            timeoutMs: 10_000,
          }),
        );
        const collectors = [createRunCollector(), createRunCollector()];
        let loopDelay: LoopDelay | null = null;
        try {
          // As eval does: the hot path warmed and the connections opened before the first send.
          for (const client of clients) {
            await warmUp({
              preconnect: (n) => client.preconnect(n),
              connections: CONCURRENCY,
              sample: plan[0],
              score: (r) => void scoreRecord(r, expectations.get(r.key)!),
            });
          }
          const loop = watchLoopDelay();
          try {
            await Promise.all(
              clients.map((client, i) =>
                runPlan(plan, {
                  client,
                  concurrency: CONCURRENCY,
                  onRecord: (r: UnscoredRecord) => collectors[i]!.add(scoreRecord(r, expectations.get(r.key)!)),
                }),
              ),
            );
          } finally {
            loopDelay = loop.stop();
          }
        } finally {
          await Promise.all(clients.map((c) => c.close()));
          await Promise.all(sims.map((sim) => sim.close()));
        }
        // Each with the timing uncertainty eval writes to generator.json (one process: the same).
        const first = collectors[0]!.finish('first', 0, loopDelay);
        const second = collectors[1]!.finish('second', 0, loopDelay);
        const comparison = compareRuns(first, second, { seed: rep + 1, resamples: 500 });
        tests += comparison.fdr.tests;
        const discoveries = comparison.significant.better + comparison.significant.worse;
        // Every discovery is false: V / R, and 0 when nothing was reported.
        proportions.push(discoveries === 0 ? 0 : 1);
        found.push(
          ...comparison.groups.flatMap((g) =>
            g.figures
              .filter((f) => f.significant)
              .map((f) => `${rep}: ${f.figure} ${f.baseline} → ${f.current} (q = ${f.q_value})`),
          ),
        );
      }
      const fdr = proportions.reduce((a, b) => a + b, 0) / proportions.length;
      // Scores, rates and latency means and medians were tested (not a vacuous pass)...
      expect(tests / REPETITIONS).toBeGreaterThan(50);
      // ...and the false discoveries stayed at or under the nominal rate.
      expect(fdr, `false discoveries: ${found.join('; ')}`).toBeLessThanOrEqual(FDR_Q);
    },
  );
});
