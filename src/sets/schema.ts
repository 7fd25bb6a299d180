/**
 * @module sets/schema
 * The model-override sets file (`--sets-file`): which LLM settings each set sends, and the request
 * defaults every set shares. Strict objects throughout: a misspelt field is an error, never ignored,
 * because an ignored override would silently measure the service's default model instead.
 */
import { z } from 'zod';
import { EncodingSchema } from '../records/encoding.js';
import { LLMOverrideSchema, MessageOriginSchema, SendMessageRequestSchema } from '../api/index.js';

/** Set names end up in file names, report columns and flags. */
export const SET_NAME_PATTERN = /^[A-Za-z0-9._-]+$/;
export const SetNameSchema = z
  .string()
  .min(1, { error: 'is empty', abort: true })
  .regex(SET_NAME_PATTERN, 'may hold only letters, digits, ".", "_" and "-" (names appear in file names and flags)');

/** The service's LLMOverride, refusing fields it does not know. */
export const StrictLLMOverrideSchema = LLMOverrideSchema.strict();

/** Multi-model mode takes two or three models; the service ignores a list of one. */
export const MAX_MULTI_MODELS = 3;

/** One set as written in the file; cross-field rules are checked by `setRuleProblems`. */
export const SetEntrySchema = z.strictObject({
  name: SetNameSchema,
  /**
   * The tokenizer encoding its answers' output tokens are counted with (records/encoding.ts, counted by tokens/encodings.ts);
   * absent: o200k_base. An estimate for a model that is not OpenAI's.
   */
  encoding: EncodingSchema.optional(),
  llm_override: StrictLLMOverrideSchema.nullish(),
  llm_overrides: z.array(StrictLLMOverrideSchema).nullish(),
  /** Ask every question of this set with deep research (overrides `defaults.deep_research`; a row's own column wins). */
  deep_research: z.boolean().optional(),
  /**
   * A conversation's follow-ups continue from the answer of this model of a multi-model set (its
   * `model_index`: 0, 1 or 2), as the service's own client does when a user picks a response.
   * Default 0.
   */
  continue_with: z
    .number()
    .int()
    .min(0)
    .max(MAX_MULTI_MODELS - 1)
    .optional(),
});
export type SetEntry = z.infer<typeof SetEntrySchema>;

/** A character no HTTP header value may hold (tab aside). */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f]/;

/** Request fields every set shares. Absent means the service's default. */
export const SetsDefaultsSchema = z.strictObject({
  persona_id: z.number().int().nonnegative().optional(),
  include_citations: z.boolean().optional(),
  additional_context: z.string().optional(),
  allowed_tool_ids: z.array(z.number().int()).optional(),
  forced_tool_id: z.number().int().optional(),
  origin: MessageOriginSchema.optional(),
  /**
   * Forwarded to the remote tool server; values are secrets and are redacted in every output. A
   * value with a control character (a CR LF would split the header) is refused, never echoed.
   */
  mcp_headers: SendMessageRequestSchema.shape.mcp_headers
    .unwrap()
    .unwrap()
    .refine((headers) => Object.values(headers).every((v) => !CONTROL.test(v)), {
      message: 'a header value holds a control character (CR, LF, NUL, …); a header value cannot carry one',
      abort: true,
    })
    .optional(),
  /** Ask with deep research: long, paced answers (a 300 s silence limit by default). A set or a row may say otherwise. */
  deep_research: z.boolean().optional(),
  /** Applied with the project-instructions operation before the first request. */
  project: z.strictObject({ id: z.number().int().nonnegative(), instructions: z.string() }).optional(),
  /**
   * The deployment's tools, name → id: lets a dataset's `forced_tool` name a tool (the request
   * carries its id) and its `expected_tools` be checked against what exists. The embedded
   * simulator's catalogue is known without it.
   */
  tool_ids: z.record(z.string().min(1), z.number().int().nonnegative()).optional(),
});
export type SetsDefaults = z.infer<typeof SetsDefaultsSchema>;

export const SetsFileSchema = z.strictObject({
  sets: z.array(SetEntrySchema).default([]),
  defaults: SetsDefaultsSchema.default({}),
  /** The file's JSON Schema, for editors (dist/schemas/sets.schema.json); not read. */
  $schema: z.string().optional(),
});

/**
 * A set as the rest of chatbench sees it, whether it came from the file or from `--set`.
 * Exactly one of: both overrides null (the service's configured model), `llm_override`, or
 * `llm_overrides` with two or three entries (`multi: true`, stream mode only).
 */
export const SetDefinitionSchema = z.object({
  name: SetNameSchema,
  llm_override: LLMOverrideSchema.nullable(),
  llm_overrides: z.array(LLMOverrideSchema).nullable(),
  multi: z.boolean(),
  /** The set's own deep_research; absent: the defaults' choice. */
  deep_research: z.boolean().optional(),
  /** Multi-model: which model's answer a conversation's follow-ups continue from; absent: 0. */
  continue_with: z.number().int().min(0).optional(),
  /** The encoding of its output tokens; absent: o200k_base (records/encoding.ts, counted by tokens/encodings.ts). */
  encoding: EncodingSchema.optional(),
});
export type SetDefinition = z.infer<typeof SetDefinitionSchema>;

/** The sets file after every rule passed. */
export interface SetsFile {
  readonly path: string;
  readonly sets: SetDefinition[];
  readonly defaults: SetsDefaults;
}

/** Builds a SetDefinition from an entry that passed the rules. */
export function toSetDefinition(entry: SetEntry): SetDefinition {
  const overrides = entry.llm_overrides ?? null;
  return {
    name: entry.name,
    llm_override: entry.llm_override ?? null,
    llm_overrides: overrides,
    multi: overrides !== null,
    ...(entry.deep_research === undefined ? {} : { deep_research: entry.deep_research }),
    ...(entry.continue_with === undefined ? {} : { continue_with: entry.continue_with }),
    ...(entry.encoding === undefined ? {} : { encoding: entry.encoding }),
  };
}
