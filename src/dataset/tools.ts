/**
 * @module dataset/tools
 * A dataset's tool columns against the service's tools, before anything is sent. `forced_tool` is
 * sent as `forced_tool_id`: an id goes as it is, a name needs the service's tools (the embedded
 * simulator's catalogue, or the sets file's `defaults.tool_ids`). `expected_tools` names are
 * checked against the tools when they are known; against an unknown service they are taken as
 * written (a name chatbench reads from the packets, records/tools.ts). Pure.
 */
import type { DatasetRow, ForcedTool } from './schema.js';
import { canonicalToolName } from '../records/tools.js';

/** The service's tools: canonical name → id. */
export type ToolIds = ReadonlyMap<string, number>;

/** Tool ids by canonical name from `name → id` entries (a catalogue, or defaults.tool_ids). */
export function toolIdsOf(entries: Iterable<readonly [string, number]>): ToolIds {
  return new Map([...entries].map(([name, id]) => [canonicalToolName(name), id]));
}

/** The id a row's forced_tool sends; undefined when the row forces nothing or its name is unknown (toolProblems says so first). */
export function forcedToolId(forced: ForcedTool | null, toolIds: ToolIds | null): number | undefined {
  if (forced === null) return undefined;
  if ('id' in forced) return forced.id;
  return toolIds?.get(canonicalToolName(forced.name));
}

const listOf = (toolIds: ToolIds) => [...toolIds.keys()].join(', ');

/**
 * Every problem of the rows' tool columns, `file:line: column: message`: a forced tool named when
 * the service's tools are not known, or a name (forced or expected) that is none of them.
 */
export function toolProblems(
  rows: readonly Pick<DatasetRow, 'line' | 'forced_tool' | 'expectations'>[],
  toolIds: ToolIds | null,
  file: string,
): string[] {
  const problems: string[] = [];
  for (const row of rows) {
    const at = `${file}:${row.line}`;
    const forced = row.forced_tool;
    if (forced !== null && 'name' in forced) {
      if (toolIds === null) {
        problems.push(
          `${at}: forced_tool: ${JSON.stringify(forced.name)} is a name, and this service's tools are not known: give the tool's id, or name the tools in the sets file ("defaults": {"tool_ids": {"${forced.name}": ID}})`,
        );
      } else if (!toolIds.has(canonicalToolName(forced.name))) {
        problems.push(
          `${at}: forced_tool: unknown tool ${JSON.stringify(forced.name)} (the tools: ${listOf(toolIds)})`,
        );
      }
    }
    if (toolIds === null) continue;
    for (const name of row.expectations.expected_tools) {
      if (!toolIds.has(canonicalToolName(name)))
        problems.push(`${at}: expected_tools: unknown tool ${JSON.stringify(name)} (the tools: ${listOf(toolIds)})`);
    }
  }
  return problems;
}
