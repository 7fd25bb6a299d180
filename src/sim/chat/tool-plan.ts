/**
 * @module sim/chat/tool-plan
 * What one tool call sends, as the service sends it (docs/reference/wire-format.md; the packet classes of
 * `streaming_models.py` at each listed release, keys in their field order), and what the answer
 * and a full response's `tool_calls` say of it. Every tool of one message runs in parallel in the
 * first cycle (turn 0), one tab each; the answer (turn 1) starts when the last one ended.
 *
 * | tool | packets |
 * |---|---|
 * | internal search | `search_tool_start {is_internet_search: false}`, `search_tool_queries_delta`, (v4.3+) `search_tool_filter_delta`, then `search_tool_documents_delta`, `section_end` |
 * | web search | `search_tool_start {is_internet_search: true}`, `search_tool_queries_delta`, then `search_tool_documents_delta` (SearchDocs with `is_internet: true`), `section_end` |
 * | image generation | `image_generation_start`, `image_generation_heartbeat` every second while it draws, `image_generation_final {images}`, `section_end` |
 * | custom tool | `custom_tool_start {tool_name, tool_id}`, `custom_tool_args {tool_name, tool_args}`, then `custom_tool_delta {tool_name, tool_id, response_type, data, file_ids, error}`, `section_end` |
 * | MCP tool | `custom_tool_start {tool_name, tool_id: null}`, then `custom_tool_delta` (data `{"tool_result": …}`), `section_end` |
 *
 * Before v3.1 a custom or MCP tool's packets have no `tool_id` and no `error`, and there is no
 * `custom_tool_args` (docs/reference/onyx-releases.md). Search calls number their citations in blocks of 100: the
 * first search call of the cycle cites 1, 2, …, the second 101, 102, … (tool-answer.ts).
 */
import { PyRaw, dumps } from '../encode/index.js';
import type { ReleaseTraits } from '../releases.js';
import { sampleLogNormal, type Rng } from '../rng.js';
import type { WireDoc } from './parts.js';
import type { Retrieval } from './retrieval.js';
import type { Tool } from './tools.js';

/** How long each kind of tool takes (median and p99, ms before time_scale); a search takes the profile's pre_answer_ms. */
export const TOOL_DURATION_MS = {
  web_search: { median: 600, p99: 2000 },
  image_generation: { median: 6000, p99: 15_000 },
  custom: { median: 300, p99: 1200 },
  mcp: { median: 300, p99: 1200 },
} as const;

/** An image heartbeat this often while the image is drawn (ms before time_scale). */
const IMAGE_HEARTBEAT_MS = 1000;

/** One tool call of a message: the tool, its tab, and what it found or made. */
export interface ToolCall {
  readonly tool: Tool;
  readonly tab: number;
  /** Search tools: what the search found. */
  readonly retrieval: Retrieval | null;
  /** The call's arguments (custom_tool_args, tool_calls[].tool_arguments). */
  readonly args: Record<string, unknown>;
  /** Custom and MCP tools: what the tool returned (custom_tool_delta.data); image generation: the image. */
  readonly result: unknown;
}

/** A generated image as the service describes it. */
export interface GeneratedImageWire {
  file_id: string;
  url: string;
  revised_prompt: string;
  shape: string;
}

/** What the message's tool call of `tool` is, for `message` (search tools take their retrieval). */
export function toolCall(tool: Tool, tab: number, message: string, retrieval: Retrieval | null, rng: Rng): ToolCall {
  const text = message.trim().replace(/\s+/g, ' ');
  switch (tool.kind) {
    case 'internal_search':
    case 'web_search':
      return { tool, tab, retrieval, args: { queries: retrieval?.queries ?? [text] }, result: null };
    case 'image_generation': {
      const id = rng.uuid();
      const image: GeneratedImageWire = {
        file_id: id,
        url: `/api/chat/file/${id}`,
        revised_prompt: `A clear, simple illustration of: ${text}`,
        shape: 'square',
      };
      return { tool, tab, retrieval: null, args: { prompt: text }, result: image };
    }
    case 'custom':
      return { tool, tab, retrieval: null, args: { query: text }, result: tool.response ?? { result: 'ok' } };
    case 'mcp':
      return {
        tool,
        tab,
        retrieval: null,
        args: { query: text },
        result: { tool_result: tool.response ?? { result: 'ok' } },
      };
  }
}

/** A packet of a tool call: its `obj` and when it goes, ms after the call started (before time_scale). */
export interface ToolPacket {
  at: number;
  obj: { type: string; [key: string]: unknown };
}

/**
 * The packets of one call lasting `duration` ms (before time_scale). `failed` (the tool_error
 * fault, v3.2+): the tool's `{"type": "error"}` packet instead of its result.
 */
export function toolPackets(call: ToolCall, duration: number, traits: ReleaseTraits, failed: boolean): ToolPacket[] {
  const { tool } = call;
  const start: ToolPacket[] = [];
  const end = (result: ToolPacket['obj'][]): ToolPacket[] => [
    ...start,
    ...(failed ? [{ type: 'error' }] : result).map((obj) => ({ at: duration, obj })),
    { at: duration, obj: { type: 'section_end' } },
  ];
  const withIds = traits.customToolIds;
  switch (tool.kind) {
    case 'internal_search':
    case 'web_search': {
      const internet = tool.kind === 'web_search';
      start.push(
        { at: 0, obj: { type: 'search_tool_start', is_internet_search: internet } },
        { at: 0, obj: { type: 'search_tool_queries_delta', queries: call.args.queries } },
      );
      if (!internet && traits.filterDelta !== 'none') {
        start.push({
          at: 0,
          obj:
            traits.filterDelta === 'time'
              ? { type: 'search_tool_filter_delta', sources: [], time_filter_start: null, time_filter_end: null }
              : { type: 'search_tool_filter_delta', sources: [] },
        });
      }
      return end([
        { type: 'search_tool_documents_delta', documents: call.retrieval?.documentsJson ?? new PyRaw('[]') },
      ]);
    }
    case 'image_generation': {
      start.push({ at: 0, obj: { type: 'image_generation_start' } });
      for (let at = IMAGE_HEARTBEAT_MS; at < duration; at += IMAGE_HEARTBEAT_MS)
        start.push({ at, obj: { type: 'image_generation_heartbeat' } });
      return end([{ type: 'image_generation_final', images: [call.result] }]);
    }
    case 'custom':
    case 'mcp': {
      const id = tool.kind === 'custom' ? tool.id : null;
      start.push({
        at: 0,
        obj: withIds
          ? { type: 'custom_tool_start', tool_name: tool.name, tool_id: id }
          : { type: 'custom_tool_start', tool_name: tool.name },
      });
      if (withIds && tool.kind === 'custom')
        start.push({ at: 0, obj: { type: 'custom_tool_args', tool_name: tool.name, tool_args: call.args } });
      return end([
        withIds
          ? {
              type: 'custom_tool_delta',
              tool_name: tool.name,
              tool_id: id,
              response_type: 'json',
              data: call.result,
              file_ids: null,
              error: null,
            }
          : {
              type: 'custom_tool_delta',
              tool_name: tool.name,
              response_type: 'json',
              data: call.result,
              file_ids: null,
            },
      ]);
    }
  }
}

/** How long a call takes (ms before time_scale); `searchMs` for the first search call (the profile's pre_answer time, drawn as before tools). */
export function toolDuration(call: ToolCall, searchMs: number, first: boolean, rng: Rng): number {
  if (call.tool.kind === 'internal_search' || (call.tool.kind === 'web_search' && first)) return searchMs;
  if (call.tool.kind === 'web_search') return sampleLogNormal(rng, TOOL_DURATION_MS.web_search);
  return sampleLogNormal(rng, TOOL_DURATION_MS[call.tool.kind]);
}

/** The call as a full response's `tool_calls` lists it (ToolCallResponse). */
export function toolCallResponse(call: ToolCall) {
  const docs: readonly WireDoc[] | null = call.retrieval?.documents ?? null;
  const image = call.tool.kind === 'image_generation' ? (call.result as GeneratedImageWire) : null;
  const result =
    docs !== null
      ? dumps(
          docs.map((d, i) => ({
            document_number: i + 1,
            document_id: d.document_id,
            title: d.semantic_identifier,
            link: d.link,
          })),
        )
      : dumps(image === null ? call.result : { file_id: image.file_id, revised_prompt: image.revised_prompt });
  return {
    tool_name: call.tool.name,
    tool_arguments: call.args,
    tool_result: result,
    search_docs: docs,
    generated_images: image === null ? null : [image],
    pre_reasoning: null,
  };
}

/** What the answer says of a call that is not a search (a search's documents speak for it), or null. */
export function toolSentence(call: ToolCall): string | null {
  const name = call.tool.display_name ?? call.tool.name;
  switch (call.tool.kind) {
    case 'image_generation':
      return `Here is the image I generated: ${(call.result as GeneratedImageWire).revised_prompt}.`;
    case 'custom':
      return `${name} returned ${describe(call.result)}.`;
    case 'mcp':
      return `${name} (MCP server ${call.tool.server ?? 'tools'}) returned ${describe((call.result as { tool_result: unknown }).tool_result)}.`;
    default:
      return null;
  }
}

/** A tool result in words: `status open, priority high` for an object, the value otherwise. */
function describe(value: unknown): string {
  if (Array.isArray(value)) return value.map(describe).join(' and ');
  if (value !== null && typeof value === 'object') {
    return Object.entries(value)
      .map(([key, v]) => `${key.replace(/_/g, ' ')} ${describe(v)}`)
      .join(', ');
  }
  return String(value);
}
