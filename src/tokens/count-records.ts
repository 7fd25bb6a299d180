/**
 * @module tokens/count-records
 * Adds the token figures (tokens/figures.ts) to records read back from results.jsonl, each set's
 * answers counted with its encoding. Runs where the reports are built, after the run: the
 * request's path never tokenizes. The encodings are loaded lazily (tokens/encodings.ts), the first
 * time a set's answer is counted.
 */
import type { AnswerFigures, RequestRecord } from '../records/record.js';
import { DEFAULT_ENCODING, tokenCounter, type CountTokens, type Encoding } from './encodings.js';
import { tokenFigures } from './figures.js';

/**
 * The record with output_tokens, output_tokens_per_s and tpot_per_token_ms, its own and each
 * model's. Figures already there are kept: a baseline (app/baseline) stores the counts of the
 * whole answers before it trims them, and a trimmed answer must not be counted again.
 */
export function withTokenFigures(record: RequestRecord, count: CountTokens): RequestRecord {
  const add = <T extends AnswerFigures>(figures: T): T =>
    figures.output_tokens !== undefined ? figures : { ...figures, ...tokenFigures(figures, count) };
  return { ...add(record), ...(record.models ? { models: record.models.map(add) } : {}) };
}

/** Counts records' tokens by set: `encodings` names a set's encoding, o200k_base otherwise. */
export function createTokenCounting(
  encodings: ReadonlyMap<string, Encoding>,
): (record: RequestRecord) => Promise<RequestRecord> {
  return async (record) => {
    // Nothing to count: no encoding is loaded for a run without answer text.
    if (record.answer === null && !(record.models ?? []).some((m) => m.answer !== null)) return record;
    return withTokenFigures(record, await tokenCounter(encodings.get(record.set) ?? DEFAULT_ENCODING));
  };
}
