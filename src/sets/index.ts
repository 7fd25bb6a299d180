/**
 * @module sets
 * Model-override sets: which LLM each run of the dataset asks for, from a JSON file or `--set`.
 */
export { readSets, parseSetsText, setRuleProblems, formatPath } from './read-sets.js';
export { parseSetFlag, SET_FLAG_FORM } from './set-flag.js';
export {
  resolveSets,
  checkSetsForMode,
  plannedModes,
  ModeOptionSchema,
  DEFAULT_SET_NAME,
  type ModeOption,
  type ResolvedSets,
} from './resolve.js';
export {
  SetDefinitionSchema,
  SetEntrySchema,
  SetsDefaultsSchema,
  SetsFileSchema,
  SetNameSchema,
  StrictLLMOverrideSchema,
  SET_NAME_PATTERN,
  MAX_MULTI_MODELS,
  toSetDefinition,
  type SetDefinition,
  type SetEntry,
  type SetsDefaults,
  type SetsFile,
} from './schema.js';
export { findJsonError, type JsonErrorAt } from './json-position.js';
