/**
 * @module client/wire/agent-event
 * Reads the text of a `pydantic_ai` packet, the next runtime's carrier of the answer (upstream
 * commit be8920ec, onyx/chat/agent_runtime.py `emit_agent_events` and streaming_models.py
 * `PydanticAIEvent.text_delta`): the text of a `part_start` event's TextPart (`part.content`) and of
 * each `part_delta` event's TextPartDelta (`delta.content_delta`). A `part_end` repeats the whole
 * part and is never appended (the runtime sends any tail as one more `part_delta` first). Thinking
 * parts (`part_kind` / `part_delta_kind` "thinking") are reasoning. Text is the answer only in the
 * answer's phases (`chat`, `clarification`, `report`; none given is `chat`) outside a sub-turn
 * (`placement.sub_turn_index` null); any other phase's text (a plan, a research agent's notes) is
 * reasoning, as the runtime itself stores it. Pure; never throws on odd shapes (they read as nothing).
 */

/** The phases whose top-level text is the answer. */
const ANSWER_PHASES: ReadonlySet<string> = new Set(['chat', 'clarification', 'report']);

export interface AgentText {
  readonly kind: 'answer' | 'reasoning';
  readonly text: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The text a `pydantic_ai` packet adds, and whether it is answer or reasoning; undefined when it adds none. */
export function agentEventText(
  obj: { event?: unknown; phase?: unknown },
  placement: { sub_turn_index?: number | null | undefined },
): AgentText | undefined {
  const event = obj.event;
  if (!isRecord(event)) return undefined;
  let kind: unknown;
  let text: unknown;
  if (event.event_kind === 'part_start' && isRecord(event.part)) {
    kind = event.part.part_kind;
    text = event.part.content;
  } else if (event.event_kind === 'part_delta' && isRecord(event.delta)) {
    kind = event.delta.part_delta_kind;
    text = event.delta.content_delta;
  } else return undefined;
  if (typeof text !== 'string' || text === '') return undefined;
  if (kind === 'thinking') return { kind: 'reasoning', text };
  if (kind !== 'text') return undefined;
  const phase = typeof obj.phase === 'string' ? obj.phase : 'chat';
  const answer = ANSWER_PHASES.has(phase) && placement.sub_turn_index == null;
  return { kind: answer ? 'answer' : 'reasoning', text };
}
