/**
 * @module sim/chat/agent-protocol
 * The next runtime's packets (upstream commit be8920ec, not in a release yet; `chat.packet_protocol:
 * "pydantic_ai"`): the same stream with its answer carried as that runtime carries it, so a dry run
 * can exercise a client against it. `message_start` becomes `answer_metadata` (same fields); each
 * answer `message_delta` becomes a `pydantic_ai` event in the `chat` phase (`report` for deep
 * research): a TextPart `part_start` with the first text, then TextPartDelta `part_delta`s; a
 * `part_end` repeating the whole text comes just before the model's `stop`. `citation_info` and
 * everything else is unchanged.
 */
import type { PlacementStyle } from '../releases.js';
import { packet } from './parts.js';
import type { WireStep } from './stream-plan.js';

interface Packet {
  placement: { turn_index: number; model_index?: number | null };
  obj: { type: string; [key: string]: unknown };
}

const isPacket = (part: unknown): part is Packet =>
  typeof part === 'object' && part !== null && 'obj' in part && 'placement' in part;

const textEvent = (started: boolean, text: string) =>
  started
    ? {
        index: 0,
        delta: { content_delta: text, provider_name: null, part_delta_kind: 'text' },
        event_kind: 'part_delta',
      }
    : {
        index: 0,
        part: { content: text, id: null, provider_name: null, part_kind: 'text' },
        previous_part_kind: null,
        event_kind: 'part_start',
      };

/** The steps rewritten as the next runtime sends them. `phase` is the answer's (`chat`, or `report` for deep research). */
export function toAgentProtocol(
  steps: readonly WireStep[],
  style: PlacementStyle,
  phase: 'chat' | 'report',
): WireStep[] {
  const texts = new Map<number, string>();
  const out: WireStep[] = [];
  for (const step of steps) {
    if (step.delta !== undefined) {
      const { model, content } = step.delta;
      const before = texts.get(model);
      texts.set(model, (before ?? '') + content);
      const turn = step.turn ?? 1;
      out.push({
        at: step.at,
        turn,
        part: packet(
          turn,
          model,
          { type: 'pydantic_ai', event: textEvent(before !== undefined, content), phase },
          style,
        ),
      });
      continue;
    }
    if (!isPacket(step.part)) {
      out.push(step);
      continue;
    }
    const { obj, placement } = step.part;
    if (obj.type === 'message_start') {
      const meta = {
        type: 'answer_metadata',
        final_documents: obj.final_documents ?? null,
        pre_answer_processing_seconds: obj.pre_answer_processing_seconds ?? null,
      };
      out.push({ ...step, part: { ...step.part, obj: meta } });
      continue;
    }
    const model = placement.model_index ?? 0;
    const text = texts.get(model);
    if (obj.type === 'stop' && text !== undefined) {
      const end = {
        index: 0,
        part: { content: text, id: null, provider_name: null, part_kind: 'text' },
        next_part_kind: null,
        event_kind: 'part_end',
      };
      out.push({ at: step.at, turn: step.turn, part: { placement, obj: { type: 'pydantic_ai', event: end, phase } } });
      texts.delete(model);
    }
    out.push(step);
  }
  return out;
}
