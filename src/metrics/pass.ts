/**
 * @module metrics/pass
 * Whether a request, or one model of a multi-model request, passed: the one rule behind pass rates,
 * pass@N and pass^N, the reports' pass/fail cells and JUnit. A request that is not `ok` never passes.
 */
import type { ModelFigures, RequestRecord } from '../records/record.js';

/** A model passes on its own answer: it reached `stop` and its scores pass. */
export const modelPassed = (model: Pick<ModelFigures, 'outcome' | 'scores'>): boolean =>
  model.outcome === 'ok' && model.scores?.pass === true;

/**
 * A single-model request passes by its scores; a multi-model request (no request-level scores)
 * passes when it is ok and every model passed.
 */
export function recordPassed(record: RequestRecord): boolean {
  if (record.outcome !== 'ok') return false;
  if (record.scores !== null) return record.scores.pass;
  const models = record.models ?? [];
  return models.length > 0 && models.every(modelPassed);
}

/**
 * Whether an answer's pass tested anything its question expects (scores' `checked`): an answer that
 * is not checked is left out of pass_rate, which is "not checked" when no answer is. A record written
 * before the field existed counts as checked, as it always did (its reports rebuild the same).
 */
export const modelChecked = (model: { readonly scores: { readonly checked?: boolean | undefined } | null }): boolean =>
  model.scores?.checked ?? true;

/** A multi-model request is checked when one of its models is. */
export function recordChecked(record: Pick<RequestRecord, 'scores' | 'models'>): boolean {
  if (record.scores !== null) return modelChecked(record);
  const models = record.models ?? [];
  return models.length === 0 || models.some(modelChecked);
}
