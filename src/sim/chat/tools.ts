/**
 * @module sim/chat/tools
 * The simulated service's tools (`chat.tools` in the config): each with the id a request names in
 * `allowed_tool_ids` and `forced_tool_id`, the name its packets and `tool_calls` carry, its kind,
 * and when the simulated model uses it. The default catalogue:
 *
 * | id | name | kind | used when the message matches |
 * |---|---|---|---|
 * | 1 | `internal_search` | internal search over the corpus | (fallback: when no other tool matched) |
 * | 2 | `generate_image` | image generation | draw, sketch, illustrate, picture, image, diagram |
 * | 3 | `web_search` | web search over the corpus's web pages | search the web, on the web, web search, internet, latest news |
 * | 4 | `ticket_status` | a custom (OpenAPI) tool | ticket, SUP-123 |
 * | 5 | `find_meeting_slots` | an MCP tool (server `calendar`) | meeting room, free slot(s), book a room, schedule a meeting |
 *
 * Which tools answer a message (pickTools): the tools it may use are `allowed_tool_ids` (ids
 * the catalogue does not have are ignored; absent: all); `forced_tool_id` must be one of them and
 * is then the only tool used, else the service's error "Forced tool N not found in tools". Without
 * one, every allowed tool whose `match` the new message matches (substring, or `/regex/flags`), in
 * catalogue order; when none matched, the allowed tools without `match` (the fallbacks). So with the
 * defaults a question about the knowledge base is searched as before, and a message can use
 * several tools at once (they run in parallel, one tab each).
 */
import { z } from 'zod';
import { triggerMatcher } from './match.js';

export const TOOL_KINDS = ['internal_search', 'web_search', 'image_generation', 'custom', 'mcp'] as const;
export type ToolKind = (typeof TOOL_KINDS)[number];

/** `/regex/flags` or a substring, checked as fault triggers are. */
const MatchSchema = z
  .string()
  .min(1)
  .superRefine((match, ctx) => {
    try {
      triggerMatcher(match);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: `invalid regular expression: ${(error as Error).message}` });
    }
  });

export const ToolSchema = z.strictObject({
  /** What `allowed_tool_ids` and `forced_tool_id` name. */
  id: z.number().int().nonnegative(),
  /** The name the packets (`custom_tool_start.tool_name`) and `tool_calls[].tool_name` carry. */
  name: z.string().min(1),
  kind: z.enum(TOOL_KINDS),
  /** For the answer's words ("According to Ticket status, …"); default the name. */
  display_name: z.string().min(1).optional(),
  /** The tool is used when the message matches one of these; absent: a fallback (used when no tool with `match` matched). */
  match: z.array(MatchSchema).optional(),
  /** custom and mcp: what the tool returns (`custom_tool_delta.data`); default a small JSON object. */
  response: z.json().optional(),
  /** mcp: the MCP server's name (for the answer's words). */
  server: z.string().min(1).optional(),
});
export type Tool = z.output<typeof ToolSchema>;

export const DEFAULT_TOOLS: readonly Tool[] = [
  { id: 1, name: 'internal_search', kind: 'internal_search', display_name: 'Internal search' },
  {
    id: 2,
    name: 'generate_image',
    kind: 'image_generation',
    display_name: 'Image generation',
    match: ['/\\b(draw|sketch|illustrate|picture|image|diagram)\\b/i'],
  },
  {
    id: 3,
    name: 'web_search',
    kind: 'web_search',
    display_name: 'Web search',
    match: ['/\\b(search the web|on the web|web search|internet|latest news)\\b/i'],
  },
  {
    id: 4,
    name: 'ticket_status',
    kind: 'custom',
    display_name: 'Ticket status',
    match: ['/\\bticket\\b/i', '/\\bSUP-\\d+\\b/'],
    response: {
      ticket: 'SUP-1042',
      status: 'open',
      priority: 'high',
      assignee: 'Tier 2 support',
      updated_at: '2026-11-19T16:20:00Z',
    },
  },
  {
    id: 5,
    name: 'find_meeting_slots',
    kind: 'mcp',
    display_name: 'Calendar',
    server: 'calendar',
    match: ['/\\b(meeting room|free slots?|book a room|schedule a meeting)\\b/i'],
    response: { slots: ['2026-11-24T10:00:00Z', '2026-11-24T14:30:00Z'], room: 'Harbor (6 seats)' },
  },
];

/** The catalogue: ids and names unique, one tool each of the built-in kinds at most. */
export const ToolsSchema = z.array(ToolSchema).superRefine((tools, ctx) => {
  const seen = { id: new Map<number, number>(), name: new Map<string, number>(), kind: new Map<string, number>() };
  tools.forEach((tool, i) => {
    const firstId = seen.id.get(tool.id);
    if (firstId !== undefined)
      ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `id ${tool.id} is already tools[${firstId}]'s` });
    seen.id.set(tool.id, i);
    const firstName = seen.name.get(tool.name.toLowerCase());
    if (firstName !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: [i, 'name'],
        message: `name "${tool.name}" is already tools[${firstName}]'s`,
      });
    seen.name.set(tool.name.toLowerCase(), i);
    if (tool.kind !== 'custom' && tool.kind !== 'mcp') {
      const firstKind = seen.kind.get(tool.kind);
      if (firstKind !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: [i, 'kind'],
          message: `a second ${tool.kind} tool (tools[${firstKind}] is one): the service has one`,
        });
      seen.kind.set(tool.kind, i);
    }
  });
});

/** The tools chosen for a message, or the service's refusal of a forced tool it does not have. */
export type ToolChoice = { tools: Tool[] } | { error: string };

/** Picks the tools that answer `message` (see the module header for the rules). */
export function pickTools(
  catalogue: readonly Tool[],
  message: string,
  request: { allowed_tool_ids?: readonly number[] | null | undefined; forced_tool_id?: number | null | undefined },
): ToolChoice {
  const allowedIds = request.allowed_tool_ids == null ? null : new Set(request.allowed_tool_ids);
  const allowed = catalogue.filter((tool) => allowedIds === null || allowedIds.has(tool.id));
  if (request.forced_tool_id != null) {
    const forced = allowed.find((tool) => tool.id === request.forced_tool_id);
    return forced === undefined
      ? { error: `Forced tool ${request.forced_tool_id} not found in tools` }
      : { tools: [forced] };
  }
  const matched = allowed.filter((tool) => tool.match?.some((m) => matcherOf(m)(message)));
  return { tools: matched.length > 0 ? matched : allowed.filter((tool) => tool.match === undefined) };
}

/**
 * The allowed retrieval tools (internal search, then web search) in catalogue order: what a kit
 * mock model with `-tools<n>` calls in parallel, up to n, whatever the message says.
 */
export function retrievalTools(
  catalogue: readonly Tool[],
  request: { allowed_tool_ids?: readonly number[] | null | undefined },
): Tool[] {
  const allowedIds = request.allowed_tool_ids == null ? null : new Set(request.allowed_tool_ids);
  return catalogue.filter(
    (tool) =>
      (allowedIds === null || allowedIds.has(tool.id)) &&
      (tool.kind === 'internal_search' || tool.kind === 'web_search'),
  );
}

const matchers = new Map<string, (message: string) => boolean>();
/** Compiled once per pattern (a catalogue has a handful). */
function matcherOf(match: string): (message: string) => boolean {
  let matcher = matchers.get(match);
  if (matcher === undefined) matchers.set(match, (matcher = triggerMatcher(match)));
  return matcher;
}
