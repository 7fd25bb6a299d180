/**
 * @module records/tools
 * Which tool an answer used, by name: the one vocabulary of the record's `tools_used`, the
 * dataset's `expected_tools` and `forced_tool`, and the simulator's catalogue. A name is the
 * service's own tool name (Onyx `Tool.name`, the `tool_name` of a full response's `tool_calls`):
 *
 * | packet that starts the tool | name |
 * |---|---|
 * | `search_tool_start` (`is_internet_search` false) | `internal_search` |
 * | `search_tool_start` (`is_internet_search` true) | `web_search` |
 * | `open_url_start` | `open_url` |
 * | `image_generation_start` | `generate_image` |
 * | `custom_tool_start` (custom and MCP tools) | its `tool_name` |
 * | `python_tool_start`, `file_reader_start`, `memory_tool_start`, `bash_tool_start`, `coding_agent_start` | `run_python`, `read_file`, `add_memory`, `bash`, `coding_agent` |
 *
 * The tool type names of the service's own evaluation (`SearchTool`, `WebSearchTool`,
 * `ImageGenerationTool`, `PythonTool`, `OpenURLTool`) and older names (`run_search`, `python`) are
 * read as the names above. Names compare case-insensitively. No dependency, so the viewer may use it.
 */

/** The tool a start packet (other than search and custom tools) names. */
export const TOOL_START_PACKETS: Readonly<Record<string, string>> = {
  open_url_start: 'open_url',
  image_generation_start: 'generate_image',
  python_tool_start: 'run_python',
  file_reader_start: 'read_file',
  memory_tool_start: 'add_memory',
  bash_tool_start: 'bash',
  coding_agent_start: 'coding_agent',
};

const ALIASES: Readonly<Record<string, string>> = {
  searchtool: 'internal_search',
  websearchtool: 'web_search',
  imagegenerationtool: 'generate_image',
  pythontool: 'run_python',
  openurltool: 'open_url',
  run_search: 'internal_search',
  python: 'run_python',
};

/** The canonical, lower-case form of a tool name: aliases resolved, case folded. */
export function canonicalToolName(name: string): string {
  const folded = name.trim().toLowerCase();
  return ALIASES[folded] ?? folded;
}

/** The name of the tool a packet starts, or undefined when the packet starts no tool. */
export function toolOfPacket(obj: {
  type: string;
  is_internet_search?: unknown;
  tool_name?: unknown;
}): string | undefined {
  if (obj.type === 'search_tool_start') return obj.is_internet_search === true ? 'web_search' : 'internal_search';
  if (obj.type === 'custom_tool_start')
    return typeof obj.tool_name === 'string' && obj.tool_name !== '' ? obj.tool_name : 'custom_tool';
  return TOOL_START_PACKETS[obj.type];
}
