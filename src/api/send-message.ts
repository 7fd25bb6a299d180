/**
 * @module api/send-message
 * The request of POST {base}/chat/send-chat-message (docs/reference/service-api.md "SendMessageRequest"). Unknown fields are
 * ignored, as the service does.
 */
import { z } from 'zod';
import {
  BaseFiltersSchema,
  ChatSessionCreationRequestSchema,
  FileDescriptorSchema,
  LLMOverrideSchema,
  MessageOriginSchema,
} from './common.js';

export const SEND_MESSAGE_PATH = '/chat/send-chat-message';

export const SendMessageRequestSchema = z.object({
  message: z.string(),
  llm_override: LLMOverrideSchema.nullish(),
  /** Two or three run in parallel with stream=true; exactly one is ignored by the service. */
  llm_overrides: z.array(LLMOverrideSchema).nullish(),
  allowed_tool_ids: z.array(z.number().int()).nullish(),
  forced_tool_id: z.number().int().nullish(),
  file_descriptors: z.array(FileDescriptorSchema).default([]),
  internal_search_filters: BaseFiltersSchema.nullish(),
  deep_research: z.boolean().default(false),
  mcp_headers: z.record(z.string(), z.string()).nullish(),
  origin: MessageOriginSchema.default('unset'),
  parent_message_id: z.number().int().nullish().default(-1),
  chat_session_id: z.uuid().nullish(),
  chat_session_info: ChatSessionCreationRequestSchema.nullish(),
  stream: z.boolean().default(true),
  include_citations: z.boolean().default(true),
  additional_context: z.string().nullish(),
});
/** What a client writes (defaults may be left out). */
export type SendMessageRequest = z.input<typeof SendMessageRequestSchema>;
/** What the service sees after defaults apply. */
export type SendMessageRequestParsed = z.output<typeof SendMessageRequestSchema>;
