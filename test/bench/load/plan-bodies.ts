/**
 * @module bench/load/plan-bodies
 * The bodies chatbench's load plan sends over the sample dataset, in order: the floor and
 * autocannon send the same ones (load.bench.ts, gc-trace.ts), so every tool sends what chatbench does.
 */
import { resolve } from 'node:path';
import { prepareLoad } from '../../../src/app/load/run-load.js';
import { createLoadPlan, type LoadPlan } from '../../../src/plan/load-plan.js';
import type { Mode } from '../../../src/records/record.js';

const ROOT = resolve(import.meta.dirname, '../../..');

export async function planBodies(mode: Mode): Promise<string[]> {
  const { plan, rows } = await samplePlan(mode);
  return Array.from({ length: rows }, (_, k) => JSON.stringify(plan.requestFor(k).planned.body));
}

/** chatbench's load plan over the sample dataset in `mode` (sequential, seed 1), and its number of rows. */
export async function samplePlan(mode: Mode): Promise<{ plan: LoadPlan; rows: number }> {
  const prepared = await prepareLoad({
    operation: 'chat',
    mode,
    datasetPath: 'datasets/sample.csv',
    setFlags: [],
    cwd: ROOT,
  });
  const source = prepared.source;
  if (source.operation !== 'chat') throw new Error('the benchmark sends chat requests');
  const plan = createLoadPlan({
    operation: 'chat',
    rows: source.rows,
    set: source.set,
    defaults: source.defaults,
    mode,
    order: 'sequential',
    seed: 1,
  });
  return { plan, rows: source.rows.length };
}
