/**
 * @module api/common
 * Shared resources of the chat service interface (docs/reference/service-api.md). Types are inferred from the
 * schemas here and nowhere written twice.
 */
import { z } from 'zod';

/** Date-time bounds: an offset is optional; without one the service reads the value as UTC. */
export const DateTimeSchema = z.iso.datetime({ offset: true, local: true });

/** The eight generic members the description names; the other 51 are any lowercase identifier. */
export const GENERIC_DOCUMENT_SOURCES = [
  'ingestion_api',
  'web',
  'file',
  'imap',
  'not_applicable',
  'mock_connector',
  'user_file',
  'craft_file',
] as const;
export const DocumentSourceSchema = z
  .string()
  .regex(/^[a-z][a-z0-9_]*$/, 'a document source is a lowercase identifier such as "web" or "confluence"');
export type DocumentSource = z.infer<typeof DocumentSourceSchema>;

export const MessageOriginSchema = z.enum([
  'webapp',
  'chrome_extension',
  'api',
  'slackbot',
  'widget',
  'discordbot',
  'mobile',
  'unknown',
  'unset',
]);
export type MessageOrigin = z.infer<typeof MessageOriginSchema>;

export const ChatFileTypeSchema = z.enum(['image', 'document', 'plain_text', 'tabular']);
export type ChatFileType = z.infer<typeof ChatFileTypeSchema>;

export const FileDescriptorSchema = z.object({
  id: z.string(),
  type: ChatFileTypeSchema,
  name: z.string().nullish(),
  user_file_id: z.string().nullish(),
});
export type FileDescriptor = z.infer<typeof FileDescriptorSchema>;

/** Inclusive window; a null bound is open. */
export const TimeRangeSchema = z.object({
  start: DateTimeSchema.nullish(),
  end: DateTimeSchema.nullish(),
});
export type TimeRange = z.infer<typeof TimeRangeSchema>;

export const TagSchema = z.object({ tag_key: z.string(), tag_value: z.string() });
export type Tag = z.infer<typeof TagSchema>;

export const BaseFiltersSchema = z.object({
  source_type: z.array(DocumentSourceSchema).nullish(),
  document_set: z.array(z.string()).nullish(),
  created_at_range: TimeRangeSchema.nullish(),
  updated_at_range: TimeRangeSchema.nullish(),
  tags: z.array(TagSchema).nullish(),
  time_cutoff: DateTimeSchema.nullish(),
});
export type BaseFilters = z.infer<typeof BaseFiltersSchema>;

/** Every field optional and nullable: only what differs from the persona's configured LLM is given. */
export const LLMOverrideSchema = z.object({
  model_configuration_id: z.number().int().nullish(),
  model_provider: z.string().nullish(),
  model_version: z.string().nullish(),
  temperature: z
    .number()
    .min(0, 'temperature must be between 0 and 2')
    .max(2, 'temperature must be between 0 and 2')
    .nullish(),
  display_name: z.string().nullish(),
});
export type LLMOverride = z.infer<typeof LLMOverrideSchema>;

export const ChatSessionCreationRequestSchema = z.object({
  persona_id: z.number().int().default(0),
  description: z.string().nullish(),
  project_id: z.number().int().nullish(),
  incognito: z.boolean().default(false),
  incognito_session_id: z.uuid().nullish(),
});
export type ChatSessionCreationRequest = z.input<typeof ChatSessionCreationRequestSchema>;
