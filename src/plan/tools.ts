/**
 * @module plan/tools
 * The service's tools as a plan sends them: a row's forced_tool as forced_tool_id
 * (dataset/tools.ts checks the names before this runs).
 */
export { forcedToolId, toolIdsOf, toolProblems, type ToolIds } from '../dataset/tools.js';
