/**
 * @module app/load/load-record
 * What a load run builds its plan from and does with each finished request, shared by the
 * single-threaded run (run-load.ts) and each worker thread (workers/load-worker.ts), and kept apart
 * from run-load so that a worker thread loads only these (not the reports) when it starts.
 */
import type { LoadPlanInput, LoadSpec } from '../../plan/load-plan.js';
import { OPEN_URLS_SET } from '../../plan/load-plan.js';
import type { PlannedRequest } from '../../plan/planned-request.js';
import type { RequestRecord } from '../../records/record.js';
import type { UnscoredRecord } from '../../runner/index.js';
import type { PreparedLoad } from './prepare-load.js';
import { scoreRecord } from '../shared/score-record.js';

export function planInput(prepared: PreparedLoad, spec: LoadSpec): LoadPlanInput {
  const common = { order: spec.question_order, seed: spec.seed };
  const { source } = prepared;
  if (source.operation === 'open-urls') return { operation: 'open-urls', urls: source.urls, ...common };
  return {
    operation: 'chat',
    rows: source.rows,
    set: source.set,
    defaults: source.defaults,
    mode: spec.mode,
    conversations: spec.conversations,
    toolIds: source.toolIds,
    ...common,
  };
}

/** A finished request as results.jsonl holds it: scored like eval's; a load run judges nothing, so the documents' text (kept for a judge) would only swell the file. */
export function finishedRecord(unscored: UnscoredRecord, planned: PlannedRequest): RequestRecord {
  // scoreRecord fills the record in place (no copy): the documents are emptied on it too.
  const record = scoreRecord(unscored, expectationsOf(planned));
  record.top_documents = [];
  for (const model of record.models ?? []) model.top_documents = [];
  return record;
}

/** Chat records are scored like eval's, with the row's expectations the plan read; open-urls records have nothing to score. */
const expectationsOf = (planned: PlannedRequest): PlannedRequest['expectations'] | undefined =>
  planned.set === OPEN_URLS_SET ? undefined : planned.expectations;
