/**
 * @module sim/llm/tool-choice
 * Which tools the mock LLM calls, following the contract of the service's LLM loops
 * (backend/onyx/chat/llm_loop.py and backend/onyx/deep_research/dr_loop.py; `ToolChoiceOptions` in
 * backend/onyx/llm/models.py), as the service's own kit mock does:
 *
 * - `none`, or no tools offered → no call: plain text (final answers, deep-research plans and
 *   reports, secondary flows such as query rephrasing).
 * - a named function → exactly that one; a name not offered is the caller's bug, refused as OpenAI does (400).
 * - `required` → `research_agent` (× agents) when offered and not called yet in the history
 *   (deep-research orchestrator), then `generate_report`; else a retrieval tool not called yet
 *   (research-agent loop), then `generate_report`; else the first tool offered.
 * - `auto` → `generate_plan` when offered (deep research's clarification phase always goes on to
 *   the plan, so a load-test turn never ends on a question); else, with the `tools` knob and no
 *   tool result yet, up to that many retrieval tools in parallel; else plain text.
 *
 * The history is the only state: which phase a loop is in is read from the calls it already made.
 */
import type { LlmMessage, LlmRequest, LlmTool } from '../../api/llm.js';
import type { LlmKnobs } from './knobs.js';

/** The service's retrieval tools, in the order the kit prefers them. */
export const RETRIEVAL_TOOLS = ['internal_search', 'web_search', 'open_url'] as const;
const RESEARCH_AGENT = 'research_agent';
const GENERATE_REPORT = 'generate_report';
const GENERATE_PLAN = 'generate_plan';

/** A call to make: the tool and the text its string arguments are filled with. */
export interface PlannedCall {
  readonly tool: LlmTool;
  readonly task: string;
}

export type ToolDecision =
  | { readonly kind: 'calls'; readonly calls: readonly PlannedCall[] }
  | { readonly kind: 'refuse'; readonly message: string };

/** The text of a message: a string, or the first text part of multimodal content. */
export function contentText(message: LlmMessage): string | null {
  const { content } = message;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    for (const part of content) {
      if (typeof part === 'object' && part !== null && (part as { type?: unknown }).type === 'text')
        return String((part as { text?: unknown }).text ?? '');
    }
  }
  return null;
}

/** The last user message's text; `load test query` when there is none. */
export function lastUserText(messages: readonly LlmMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role !== 'user') continue;
    const text = contentText(message);
    if (text !== null) return text;
  }
  return 'load test query';
}

const called = (messages: readonly LlmMessage[], names: readonly string[]) =>
  messages.some(
    (m) => m.role === 'assistant' && (m.tool_calls ?? []).some((call) => names.includes(call.function.name)),
  );

/** Decides the calls of one request; an empty list means: answer with text. */
export function decideTools(request: LlmRequest, knobs: LlmKnobs): ToolDecision {
  const tools = request.tools ?? [];
  const byName = new Map(tools.map((tool) => [tool.function.name, tool]));
  const { messages } = request;
  const snippet = lastUserText(messages).slice(0, 200);
  const call = (tool: LlmTool, task = snippet): PlannedCall => ({ tool, task });
  const calls = (...list: PlannedCall[]): ToolDecision => ({ kind: 'calls', calls: list });
  const choice = request.tool_choice;

  if (typeof choice === 'object' && choice !== null) {
    const forced = choice.function?.name;
    const tool = forced === undefined ? undefined : byName.get(forced);
    if (tool === undefined) {
      return {
        kind: 'refuse',
        message: `Invalid 'tool_choice': function ${JSON.stringify(forced ?? null)} is not in 'tools': ${JSON.stringify([...byName.keys()].sort())}`,
      };
    }
    return calls(call(tool));
  }
  const mode = choice ?? (tools.length > 0 ? 'auto' : 'none');
  if (mode === 'none' || tools.length === 0) return calls();

  if (mode === 'required') {
    const agent = byName.get(RESEARCH_AGENT);
    const report = byName.get(GENERATE_REPORT);
    if (agent !== undefined) {
      if (!called(messages, [RESEARCH_AGENT]))
        return calls(
          ...Array.from({ length: knobs.agents }, (_, i) => call(agent, `research aspect ${i + 1}: ${snippet}`)),
        );
      if (report !== undefined) return calls(call(report));
    }
    const retrieval = RETRIEVAL_TOOLS.map((name) => byName.get(name)).find((tool) => tool !== undefined);
    if (retrieval !== undefined && !called(messages, RETRIEVAL_TOOLS)) return calls(call(retrieval));
    if (report !== undefined) return calls(call(report));
    return calls(call(tools[0]!));
  }

  // auto (and any mode the service does not send, read as auto like the kit does)
  const plan = byName.get(GENERATE_PLAN);
  if (plan !== undefined) return calls(call(plan));
  if (knobs.autoTools > 0 && !messages.some((m) => m.role === 'tool')) {
    const retrieval = RETRIEVAL_TOOLS.flatMap((name) => byName.get(name) ?? []).slice(0, knobs.autoTools);
    return calls(...(retrieval.length > 0 ? retrieval : [tools[0]!]).map((tool) => call(tool)));
  }
  return calls();
}

/**
 * A tool's arguments from its JSON Schema: every required property (all of them when none is
 * listed as required) gets the task text, a one-element list of it, 1 or true by its type, so that
 * a schema change in the service degrades gracefully instead of failing the turn.
 */
export function synthesizeArguments(tool: LlmTool, task: string): string {
  const params = tool.function.parameters;
  const properties = (
    typeof params.properties === 'object' && params.properties !== null ? params.properties : {}
  ) as Record<string, { type?: unknown }>;
  const required = Array.isArray(params.required)
    ? (params.required as unknown[]).map(String)
    : Object.keys(properties);
  const args: Record<string, unknown> = {};
  for (const name of required) {
    const type = properties[name]?.type;
    args[name] =
      type === 'array' ? [task] : type === 'integer' || type === 'number' ? 1 : type === 'boolean' ? true : task;
  }
  return JSON.stringify(args);
}
