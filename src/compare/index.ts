/**
 * @module compare
 * Comparing a run with a baseline: collect each run's data, match and compare, render.
 */
export { DEFAULT_RESAMPLES, type Interval } from './bootstrap.js';
export { compareRuns, groupLabel, parseSetMap, type CompareOptions } from './compare.js';
export { benjaminiHochberg, FDR_Q } from './fdr.js';
export { renderCompareHtml } from './render-html.js';
export { renderCompareJson, renderCompareMd, renderGatesMd, renderGroupTable, renderStepSummary } from './render-md.js';
export { methodNote, significanceLine } from './table.js';
export {
  createRunCollector,
  findGroup,
  groupValue,
  type GroupData,
  type GroupKey,
  type QuestionData,
  type RunCollector,
  type RunData,
} from './run-data.js';
export {
  ComparisonSchema,
  type Comparison,
  type FigureDelta,
  type GroupComparison,
  type QuestionChange,
} from './schema.js';
