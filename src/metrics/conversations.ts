/**
 * @module metrics/conversations
 * The conversation figures of one summary group: a conversation (its dataset id, once per repeat)
 * passes when every one of its turns passed; one that a failed turn ended early has skipped turns
 * and does not pass. Order-independent: turns may come in any order.
 */
import type { ConversationFigures } from '../records/summary.js';
import { proportionEstimate } from './stats.js';

/** One turn as the accumulator sees it. */
export interface TurnObservation {
  conversation: string;
  repeat: number;
  passed: boolean;
  skipped: boolean;
}

export interface ConversationAccumulator {
  add(turn: TurnObservation): void;
  /** null when no turn was added (the group has no conversation). */
  figures(): ConversationFigures | null;
}

export function createConversationAccumulator(): ConversationAccumulator {
  const conversations = new Map<string, { passed: boolean; skipped: boolean }>();
  return {
    add(turn) {
      const key = JSON.stringify([turn.conversation, turn.repeat]);
      const state = conversations.get(key) ?? { passed: true, skipped: false };
      state.passed &&= turn.passed;
      state.skipped ||= turn.skipped;
      conversations.set(key, state);
    },
    figures() {
      if (conversations.size === 0) return null;
      const states = [...conversations.values()];
      const passed = states.filter((s) => s.passed).length;
      return {
        count: states.length,
        passed,
        pass_rate: proportionEstimate(passed, states.length),
        ended_early: states.filter((s) => s.skipped).length,
      };
    },
  };
}
