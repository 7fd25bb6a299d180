/**
 * @module runner
 * The closed-loop runner's public surface.
 */
export { runPlan, type RunPlanOptions, type RunResult } from './run-plan.js';
export type { RunProgress } from './progress.js';
export type { BackoffOptions } from './retry.js';
export { UnscoredRecordSchema, type UnscoredRecord } from './unscored-record.js';
