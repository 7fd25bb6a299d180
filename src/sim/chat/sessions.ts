/**
 * @module sim/chat/sessions
 * The simulated service's chat sessions: each user's sessions and their messages, in memory and
 * bounded. A session is a tree of messages (a user message, then one assistant message per model
 * answering it); a request names where it goes with `parent_message_id` (-1, the default: after
 * the session's latest message; null: from the root, no history; an id: after that message) and
 * its history is the chain from the root to that parent.
 *
 * What the service answers (read from its source, the same in every listed release): a
 * `chat_session_id` that does not exist, or that belongs to another user, is "Invalid Chat Session
 * ID provided"; a `parent_message_id` not in the session is "The new message sent is not on the
 * latest mainline of messages". Both are ValueErrors of the service: a streamed VALIDATION_ERROR
 * (engine.ts writes it), or in full mode the 400 `{"message": "Message ID is required"}`.
 *
 * An anonymous user's sessions have no owner and are open to everyone, as the service's.
 *
 * Memory: at most `max_sessions` sessions (the least recently used is forgotten first) and
 * `max_messages` messages per session (its oldest are forgotten: a chain that reached them stops
 * there, and naming one of them as parent is refused like any unknown message).
 */

import { ANONYMOUS_USER_ID } from '../auth.js';

/** One message of a session. */
export interface StoredMessage {
  readonly id: number;
  readonly parent: number | null;
  readonly role: 'user' | 'assistant';
  readonly text: string;
  /** Tokens (words and punctuation) of the text: what a follow-up's time to first token grows with. */
  readonly tokens: number;
}

export interface Session {
  readonly id: string;
  readonly userId: string;
  readonly messages: Map<number, StoredMessage>;
  /** The latest message (where `parent_message_id` -1 goes); null in a new session. */
  latest: number | null;
}

/** Why a request cannot go where it asked: the service's own messages. */
export const INVALID_SESSION = 'Invalid Chat Session ID provided';
export const NOT_ON_MAINLINE = 'The new message sent is not on the latest mainline of messages';

export interface SessionLimits {
  readonly max_sessions: number;
  readonly max_messages: number;
}

export interface SessionStore {
  /** A new session of `userId`. */
  create(id: string, userId: string): Session;
  /** The session, when it exists and `userId` may use it; else undefined. */
  find(id: string, userId: string): Session | undefined;
  /** The chain from the root to `parent` (-1: the latest message, null: none); undefined when `parent` is not in the session. */
  history(session: Session, parent: number | null): StoredMessage[] | undefined;
  /** Adds a message; the latest becomes it when `latest`. */
  add(session: Session, message: StoredMessage, latest: boolean): void;
  /** How many sessions are remembered. */
  size(): number;
}

/** Tokens of a text as the simulated models count them (words and punctuation marks). */
export const countTokens = (text: string): number => text.match(/[\p{L}\p{N}_]+|\S/gu)?.length ?? 0;

/** Creates an empty store bounded by `limits`. */
export function createSessionStore(limits: SessionLimits): SessionStore {
  const sessions = new Map<string, Session>();
  return {
    create(id, userId) {
      const session: Session = { id, userId, messages: new Map(), latest: null };
      sessions.delete(id);
      sessions.set(id, session);
      while (sessions.size > limits.max_sessions) sessions.delete(sessions.keys().next().value as string);
      return session;
    },
    find(id, userId) {
      const session = sessions.get(id);
      if (session === undefined || (session.userId !== userId && session.userId !== ANONYMOUS_USER_ID))
        return undefined;
      // Least recently used first out: a session in use moves to the end.
      sessions.delete(id);
      sessions.set(id, session);
      return session;
    },
    history(session, parent) {
      if (parent === null) return [];
      const start = parent === -1 ? session.latest : parent;
      if (start === null) return [];
      if (!session.messages.has(start)) return undefined;
      const chain: StoredMessage[] = [];
      // Bounded by the session's message count: a chain visits each message once.
      for (let at: number | null = start; at !== null && chain.length <= session.messages.size;) {
        const message = session.messages.get(at);
        if (message === undefined) break; // forgotten (max_messages): the history starts after it
        chain.push(message);
        at = message.parent;
      }
      return chain.reverse();
    },
    add(session, message, latest) {
      session.messages.set(message.id, message);
      if (latest) session.latest = message.id;
      while (session.messages.size > limits.max_messages)
        session.messages.delete(session.messages.keys().next().value as number);
    },
    size: () => sessions.size,
  };
}
