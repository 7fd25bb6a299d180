/**
 * @module runner
 * The closed-loop runner's public surface.
 */
export { runPlan, planUnits, type RunPlanOptions, type RunResult } from './run-plan.js';
export type { PreviousTurn } from './conversation-turns.js';
export type { RunProgress } from './progress.js';
export type { BackoffOptions } from './retry.js';
export { UnscoredRecordSchema, type UnscoredRecord } from './unscored-record.js';
