/**
 * @module api/documents
 * Documents, citations, images and tool calls as the service returns them (docs/reference/service-api.md "ChatFullResponse").
 * Response schemas keep unknown keys: a newer service may add fields, which must never fail a run.
 */
import { z } from 'zod';
import { DocumentSourceSchema } from './common.js';

/** Key order is the order the deployed service writes (docs/reference/wire-format.md). */
export const SearchDocSchema = z.looseObject({
  document_id: z.string(),
  chunk_ind: z.number().int(),
  semantic_identifier: z.string(),
  link: z.string().nullish(),
  blurb: z.string(),
  source_type: DocumentSourceSchema,
  boost: z.number().int(),
  hidden: z.boolean(),
  metadata: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
  score: z.number().nullish(),
  is_relevant: z.boolean().nullish(),
  relevance_explanation: z.string().nullish(),
  match_highlights: z.array(z.string()),
  updated_at: z.string().nullish(),
  primary_owners: z.array(z.string()).nullish(),
  secondary_owners: z.array(z.string()).nullish(),
  is_internet: z.boolean().default(false),
  file_id: z.string().nullish(),
});
export type SearchDoc = z.infer<typeof SearchDocSchema>;

export const CitationInfoSchema = z.looseObject({
  type: z.literal('citation_info').default('citation_info'),
  citation_number: z.number().int(),
  document_id: z.string(),
});
export type CitationInfo = z.infer<typeof CitationInfoSchema>;

export const GeneratedImageSchema = z.looseObject({
  file_id: z.string(),
  url: z.string(),
  revised_prompt: z.string(),
  shape: z.string().nullish(),
});
export type GeneratedImage = z.infer<typeof GeneratedImageSchema>;

export const ToolCallResponseSchema = z.looseObject({
  tool_name: z.string(),
  tool_arguments: z.record(z.string(), z.unknown()),
  tool_result: z.string(),
  search_docs: z.array(SearchDocSchema).nullish(),
  generated_images: z.array(GeneratedImageSchema).nullish(),
  pre_reasoning: z.string().nullish(),
});
export type ToolCallResponse = z.infer<typeof ToolCallResponseSchema>;

/** The body of send-chat-message with stream=false. `error_msg` set (status 200) = the answer failed. */
export const ChatFullResponseSchema = z.looseObject({
  answer: z.string(),
  answer_citationless: z.string(),
  pre_answer_reasoning: z.string().nullish(),
  tool_calls: z.array(ToolCallResponseSchema).default([]),
  top_documents: z.array(SearchDocSchema),
  citation_info: z.array(CitationInfoSchema),
  message_id: z.number().int(),
  chat_session_id: z.string().nullish(),
  incognito: z.boolean().default(false),
  error_msg: z.string().nullish(),
});
export type ChatFullResponse = z.infer<typeof ChatFullResponseSchema>;
