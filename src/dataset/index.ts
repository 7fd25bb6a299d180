/**
 * @module dataset
 * CSV datasets of questions with their expectations, validated before anything is sent.
 */
export { readDataset, scanDataset, metadataColumns, type Dataset, type DatasetShape } from './read-csv.js';
export { readUtf8File, type InputFile } from './read-text.js';
export { indexDataset, rowsInMemory, type IndexedDataset, type RowSource } from './row-source.js';
export { conversationProblems, conversationUnits, hasConversations } from './conversations.js';
export { forcedToolId, toolIdsOf, toolProblems, type ToolIds } from './tools.js';
export {
  DatasetRowSchema,
  KNOWN_COLUMNS,
  isKnownColumn,
  type DatasetRow,
  type DatasetRowInput,
  type KnownColumn,
  type ForcedTool,
} from './schema.js';
export { readLabels, type LabelScope } from './read-labels.js';
