/**
 * @module plan/conversation
 * How a later turn of a conversation is sent, from the turn before it: in that turn's chat session
 * (`chat_session_id`), after the answer it continues from (`parent_message_id`: the assistant
 * message id of the stream's ids part or of the full response; in a multi-model set, that of model
 * `continue_with`). The runner applies these to the planned bodies; they are pure.
 */
import type { SendMessageRequest } from '../api/index.js';
import type { RequestRecord } from '../records/record.js';

/** Where the next turn goes: a session, and the message it follows (-1: after the latest, the service's default). */
export interface Continuation {
  readonly chat_session_id: string;
  readonly parent_message_id: number;
}

/** What a turn's record says about where the conversation can continue. */
export type TurnIds = Pick<RequestRecord, 'chat_session_id' | 'message_id'> & {
  readonly models: ReadonlyArray<{
    readonly model_index: number;
    readonly message_id?: number | null | undefined;
  }> | null;
};

/**
 * Where the turn after `ids` continues, or a reason it cannot: the service never said the session
 * id. Without the message id of the answer (an older release's multi-model ids, a body without
 * ids) the next turn goes after the session's latest message (`parent_message_id` -1).
 */
export function continuationAfter(ids: TurnIds, continueWith: number): Continuation | string {
  if (ids.chat_session_id === null) return 'the service did not say which chat session the previous turn was in';
  const model = ids.models?.find((m) => m.model_index === continueWith) ?? null;
  const parent = ids.models === null ? ids.message_id : (model?.message_id ?? ids.message_id);
  return { chat_session_id: ids.chat_session_id, parent_message_id: parent ?? -1 };
}

/** A later turn's body: the planned one, in the given session after the given message (no `chat_session_info`: the service refuses both). */
export function followUpBody(body: SendMessageRequest, at: Continuation): SendMessageRequest {
  const { chat_session_info: _info, ...rest } = body;
  return { ...rest, chat_session_id: at.chat_session_id, parent_message_id: at.parent_message_id };
}
