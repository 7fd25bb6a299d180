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
