/**
 * @module plan/record-owner
 * Which shard of a plan a record belongs to, from what the run's manifest says of the plan (its
 * question ids in dataset order, sets, mode, repeats; for load, the arrival order and seed) and the
 * record's own fields. `merge` checks every record with it: a record whose key is in no shard's
 * plan, or that sits in another shard's results.jsonl than its own, is refused. Pure.
 *
 * Eval plans shard by the dataset's units (build-plan.ts: a unit is a conversation, or a question on
 * its own): unit u, with every set, mode and repeat it is asked under, goes to shard u mod N + 1
 * (shard.ts). Load arrival k asks question (or plays conversation) `order(k)` and goes to shard
 * k mod N + 1.
 */
import { requestKey } from '../records/record.js';
import type { QuestionOrder } from '../records/load-spec.js';
import { plannedModes, type ModeOption } from '../sets/index.js';
import { uniformAt } from './load-plan.js';

/** What a manifest tells of its plan. */
export type PlanOutline =
  | {
      readonly command: 'eval';
      readonly questionIds: readonly string[];
      /** The conversation units (question ids in turn order) when the dataset has conversations; else null (a unit per question). */
      readonly units: ReadonlyArray<readonly string[]> | null;
      readonly sets: ReadonlyArray<{ readonly name: string; readonly multi: boolean }>;
      readonly mode: ModeOption;
      readonly repeat: number;
      readonly shardCount: number;
    }
  | {
      readonly command: 'load';
      /** Null when the manifest does not list them (the question is then not checked). */
      readonly questionIds: readonly string[] | null;
      /** With --conversations: the conversations an arrival plays (question ids in turn order); else null. */
      readonly units: ReadonlyArray<readonly string[]> | null;
      readonly set: string;
      readonly mode: string;
      readonly order: QuestionOrder;
      readonly seed: number;
      /** Arrivals of the whole plan when known (open model, or closed with a request count). */
      readonly total: number | null;
      readonly shardCount: number;
    };

export interface RecordIdentity {
  readonly key: string;
  readonly question_id: string;
  readonly set: string;
  readonly mode: string;
  readonly repeat: number;
}

/** The 1-based shard the record belongs to, or why it belongs to no shard of this plan. */
export function shardOfRecord(plan: PlanOutline, record: RecordIdentity): number | { readonly reason: string } {
  if (record.key !== requestKey(record.question_id, record.set, record.mode, record.repeat)) {
    return { reason: `its key does not match its question_id, set, mode and repeat` };
  }
  const index = plan.command === 'eval' ? evalUnit(plan, record) : loadIndex(plan, record);
  return typeof index === 'number' ? (index % plan.shardCount) + 1 : index;
}

/** Cache of id → position per outline: a merge asks once per record. */
const positions = new WeakMap<readonly string[], Map<string, number>>();
function positionOf(ids: readonly string[], id: string): number | undefined {
  let map = positions.get(ids);
  if (map === undefined) {
    map = new Map(ids.map((q, i) => [q, i]));
    positions.set(ids, map);
  }
  return map.get(id);
}

/** Cache of id → its unit's position per outline's units. */
const unitPositions = new WeakMap<ReadonlyArray<readonly string[]>, Map<string, number>>();
function unitOf(units: ReadonlyArray<readonly string[]>, id: string): number | undefined {
  let map = unitPositions.get(units);
  if (map === undefined) {
    map = new Map(units.flatMap((unit, u) => unit.map((q) => [q, u] as const)));
    unitPositions.set(units, map);
  }
  return map.get(id);
}

/** The dataset unit (conversation, or question on its own) the record's request is planned under, once the plan is checked to ask it. */
function evalUnit(plan: Extract<PlanOutline, { command: 'eval' }>, r: RecordIdentity): number | { reason: string } {
  const unit = plan.units === null ? positionOf(plan.questionIds, r.question_id) : unitOf(plan.units, r.question_id);
  if (unit === undefined) return { reason: `question ${JSON.stringify(r.question_id)} is not in the run's dataset` };
  const set = plan.sets.find((s) => s.name === r.set);
  if (set === undefined) return { reason: `set ${JSON.stringify(r.set)} is not one of the plan's sets` };
  if (!(plannedModes(set, plan.mode) as readonly string[]).includes(r.mode))
    return { reason: `mode ${r.mode} is not planned for set ${set.name}` };
  if (!Number.isInteger(r.repeat) || r.repeat < 0 || r.repeat >= plan.repeat)
    return { reason: `repeat ${r.repeat} is outside the plan's ${plan.repeat} repeats` };
  return unit;
}

function loadIndex(plan: Extract<PlanOutline, { command: 'load' }>, r: RecordIdentity): number | { reason: string } {
  if (r.set !== plan.set) return { reason: `set ${JSON.stringify(r.set)} is not the run's set (${plan.set})` };
  if (r.mode !== plan.mode) return { reason: `mode ${r.mode} is not the run's mode (${plan.mode})` };
  const index = r.repeat; // a load record's repeat is its arrival's global number
  if (!Number.isSafeInteger(index) || index < 0 || (plan.total !== null && index >= plan.total)) {
    return { reason: `arrival ${index} is outside the plan's ${plan.total ?? 'arrivals'}` };
  }
  if (plan.units !== null && plan.units.length > 0) {
    const unit = plan.units[pickAt(plan, index, plan.units.length)]!;
    if (!unit.includes(r.question_id))
      return {
        reason: `arrival ${index} plays ${unit.map((q) => JSON.stringify(q)).join(', ')}, not ${JSON.stringify(r.question_id)}`,
      };
    return index;
  }
  const ids = plan.questionIds;
  if (ids !== null && ids.length > 0) {
    const expected = ids[pickAt(plan, index, ids.length)];
    if (expected !== r.question_id)
      return { reason: `arrival ${index} asks ${JSON.stringify(expected)}, not ${JSON.stringify(r.question_id)}` };
  }
  return index;
}

/** Which of `size` questions (or conversations) load arrival `index` asks: as load-plan.ts picks. */
const pickAt = (plan: Extract<PlanOutline, { command: 'load' }>, index: number, size: number): number =>
  plan.order === 'sequential' ? index % size : Math.floor(uniformAt(plan.seed, index) * size);
