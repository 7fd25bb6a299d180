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
import { runSecrets } from '../../client/redact.js';
import type { LoadOptions } from './load-options.js';

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

/**
 * A finished request as a load run writes it while it sends: as measured, with its scores null
 * until the run's end scores it (score-results.ts), and no documents' text (a load run judges
 * nothing, so the text kept for a judge would only swell the file). Filled in place, not copied.
 */
export function measuredRecord(unscored: UnscoredRecord): RequestRecord {
  return withoutDocuments(scoreRecord(unscored, undefined));
}

/**
 * A finished request as results.jsonl holds it once the run has ended: scored like eval's, from
 * the expectations of the row `planned` asked (none for open-urls, or when no planned request is
 * known: the scores stay null). Takes a measured record (or one just off the runner) and fills it
 * in place; scoring a scored record again gives the same record.
 */
export function finishedRecord(
  record: UnscoredRecord | RequestRecord,
  planned: PlannedRequest | undefined,
): RequestRecord {
  return withoutDocuments(scoreRecord(record as UnscoredRecord, planned && expectationsOf(planned)));
}

function withoutDocuments(record: RequestRecord): RequestRecord {
  record.top_documents = [];
  for (const model of record.models ?? []) model.top_documents = [];
  return record;
}

/** Chat records are scored like eval's, with the row's expectations the plan read; open-urls records have nothing to score. */
const expectationsOf = (planned: PlannedRequest): PlannedRequest['expectations'] | undefined =>
  planned.set === OPEN_URLS_SET ? undefined : planned.expectations;

/** Every secret of a load run: what its results.jsonl lines are screened for (client/redact.ts). */
export const loadSecrets = (options: Pick<LoadOptions, 'tokens' | 'prepared'>): string[] =>
  runSecrets({ tokens: options.tokens, mcpHeaders: options.prepared.defaults.mcp_headers });
