/**
 * @module api/stream
 * The parts of a streamed answer (docs/reference/wire-format.md "Top-level part kinds"). Four are bare objects;
 * everything else is a Packet `{placement, obj}`. An `obj.type` we do not know is a valid
 * GenericPacket: counted and kept, never fatal.
 */
import { z } from 'zod';
import { GeneratedImageSchema, SearchDocSchema } from './documents.js';

/** `incognito` came in v4.6.0 (docs/reference/onyx-releases.md); an older release's line has only the session id. */
export const SessionCreatedPartSchema = z.looseObject({
  chat_session_id: z.string(),
  incognito: z.boolean().default(false),
});
export const MessageIdsPartSchema = z.looseObject({
  user_message_id: z.number().int().nullable(),
  reserved_assistant_message_id: z.number().int(),
});
export const MultiModelIdsPartSchema = z.looseObject({
  user_message_id: z.number().int().nullable(),
  /** Slot i belongs to model_index i. */
  responses: z.array(z.looseObject({ message_id: z.number().int(), model_name: z.string() })),
});
/** Ends that model's stream (all of it for a single model); no `stop` follows. */
export const StreamingErrorPartSchema = z.looseObject({
  error: z.string(),
  stack_trace: z.string().nullish(),
  error_code: z.string().nullish(),
  is_retryable: z.boolean().nullish(),
  /** v3.2+: `{model, provider, model_index}` of the failing model; v4.5+ adds `tool_choice`, `finish_reason`. */
  details: z.looseObject({ model_index: z.number().int().nullish(), model: z.unknown().optional() }).nullish(),
});

export const PlacementSchema = z.looseObject({
  turn_index: z.number().int(),
  tab_index: z.number().int().nullish(),
  sub_turn_index: z.number().int().nullish(),
  /**
   * 0 for a single model; 0/1/2 in multi-model mode; null on heartbeats and a user-cancel stop.
   * Absent before v3.1 and null on every packet in v3.1: in a single-model stream that is model 0.
   */
  model_index: z.number().int().nullish(),
});

const obj = <T extends string, S extends z.core.$ZodLooseShape>(type: T, shape: S = {} as S) =>
  z.looseObject({ type: z.literal(type), ...shape });

const Docs = z.array(SearchDocSchema);

/**
 * Every packet type of the newest release (docs/reference/onyx-releases.md), each with the fields its release
 * writes; a field an older release lacks is optional. So `unknown_parts` counts only types newer
 * than the newest listed release. Fields the toolkit never reads are typed loosely where releases
 * differ.
 */
export const KnownPacketObjSchema = z.discriminatedUnion('type', [
  obj('message_start', {
    final_documents: Docs.nullish(),
    /** v2.12+: the service's own time from the request to the answer's start. */
    pre_answer_processing_seconds: z.number().nullish(),
  }),
  obj('message_delta', { content: z.string() }),
  /**
   * The next runtime (upstream be8920ec, not yet released): sent once where `message_start` was,
   * with the same fields.
   */
  obj('answer_metadata', {
    final_documents: Docs.nullish(),
    pre_answer_processing_seconds: z.number().nullish(),
  }),
  /**
   * The next runtime's only carrier of answer text: a pydantic_ai AgentStreamEvent (`event`, read by
   * client/wire/agent-event.ts) in one of the answer's phases.
   */
  obj('pydantic_ai', { event: z.record(z.string(), z.unknown()), phase: z.string().nullish() }),
  obj('citation_info', { citation_number: z.number().int(), document_id: z.string() }),
  obj('reasoning_start'),
  obj('reasoning_delta', { reasoning: z.string() }),
  obj('reasoning_done'),
  obj('search_tool_start', { is_internet_search: z.boolean().nullish() }),
  obj('search_tool_queries_delta', { queries: z.array(z.string()) }),
  /** v4.3+ `sources`; v4.4+ `time_filter_start`, `time_filter_end`. */
  obj('search_tool_filter_delta', { sources: z.array(z.string()).nullish() }),
  obj('search_tool_documents_delta', { documents: Docs }),
  obj('open_url_start'),
  obj('open_url_urls', { urls: z.array(z.string()) }),
  obj('open_url_documents', { documents: Docs.nullish() }),
  obj('image_generation_start'),
  obj('image_generation_heartbeat'),
  obj('image_generation_final', { images: z.array(GeneratedImageSchema) }),
  obj('python_tool_start', { code: z.string().nullish() }),
  obj('python_tool_delta'),
  obj('custom_tool_start', { tool_name: z.string().nullish(), tool_id: z.number().int().nullish() }),
  obj('custom_tool_args'),
  /** `tool_id` and `error` from v3.1 (absent before: a required z.unknown() would refuse an older release's packet). */
  obj('custom_tool_delta', {
    tool_name: z.string().nullish(),
    tool_id: z.number().int().nullish(),
    response_type: z.string().nullish(),
    data: z.unknown().optional(),
    file_ids: z.array(z.string()).nullish(),
    error: z.unknown().optional(),
  }),
  obj('tool_call_debug'),
  obj('tool_call_argument_delta'),
  obj('file_reader_start'),
  obj('file_reader_result'),
  obj('memory_tool_start'),
  obj('memory_tool_delta'),
  obj('memory_tool_no_access'),
  obj('deep_research_plan_start'),
  obj('deep_research_plan_delta', { content: z.string() }),
  obj('research_agent_start', { research_task: z.string() }),
  obj('intermediate_report_start'),
  obj('intermediate_report_delta', { content: z.string() }),
  obj('intermediate_report_cited_docs', { cited_docs: Docs.nullish() }),
  obj('coding_agent_start'),
  obj('coding_agent_thinking_delta'),
  obj('coding_agent_final'),
  obj('bash_tool_start'),
  obj('bash_tool_delta'),
  obj('top_level_branching', { num_parallel_branches: z.number().int().nullish() }),
  obj('section_end'),
  obj('stop', { stop_reason: z.string().nullish() }),
  obj('chat_heartbeat'),
  /** A tool failed (v3.2+ streams it); the answer goes on. */
  obj('error'),
]);
export type KnownPacketObj = z.infer<typeof KnownPacketObjSchema>;
export type PacketType = KnownPacketObj['type'];
export const KNOWN_PACKET_TYPES: ReadonlySet<string> = new Set(
  KnownPacketObjSchema.options.map((o) => o.shape.type.value),
);

/** A packet type this toolkit does not know (one newer than the newest listed release). */
export const GenericPacketObjSchema = z.looseObject({
  type: z.string().refine((type) => !KNOWN_PACKET_TYPES.has(type), 'a known packet type with the wrong fields'),
});

export const PacketSchema = z.looseObject({
  placement: PlacementSchema,
  obj: z.union([KnownPacketObjSchema, GenericPacketObjSchema]),
});
export type Packet = z.infer<typeof PacketSchema>;

/**
 * One decoded part, tagged with its `kind`. `decode_error` is not on the wire: the decoder makes it
 * for a line that is not JSON, or a JSON object of no known part shape.
 */
export const StreamPartSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('session_created'), part: SessionCreatedPartSchema }),
  z.object({ kind: z.literal('message_ids'), part: MessageIdsPartSchema }),
  z.object({ kind: z.literal('multi_model_ids'), part: MultiModelIdsPartSchema }),
  z.object({ kind: z.literal('streaming_error'), part: StreamingErrorPartSchema }),
  z.object({ kind: z.literal('packet'), part: PacketSchema }),
  z.object({ kind: z.literal('decode_error'), reason: z.string(), line: z.string() }),
]);
export type StreamPart = z.infer<typeof StreamPartSchema>;
export type StreamPartKind = StreamPart['kind'];

/** A packet whose `obj.type` is known: validated against that type's fields only. */
const KnownPacketSchema = z.looseObject({ placement: PlacementSchema, obj: KnownPacketObjSchema });
/** A packet of any other (or missing) `obj.type`. */
const GenericPacketSchema = z.looseObject({ placement: PlacementSchema, obj: GenericPacketObjSchema });

/** At most this many field problems are named in a decode_error's reason. */
const MAX_REASON_ISSUES = 3;

/**
 * Classifies one parsed JSON value into a part. Never throws: a value of no known shape, or a known
 * shape with wrong fields, becomes a `decode_error`. The reason names the part (for a packet of a
 * known type, the type) and each wrong field with its path, e.g.
 * `message_delta: obj.content: expected string, received number`.
 */
export function classifyPart(value: unknown, line: string): StreamPart {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { kind: 'decode_error', reason: 'a part must be a JSON object', line };
  }
  const kind = kindOf(value);
  if (kind === undefined) return { kind: 'decode_error', reason: 'a JSON object of no known part shape', line };
  const knownType = kind === 'packet' ? knownPacketType(value) : undefined;
  // Choosing the packet schema here, rather than through PacketSchema's union, is what lets a known
  // type with a wrong field report that field instead of "no union member matched".
  const schema =
    kind !== 'packet' ? PART_SCHEMAS[kind] : knownType !== undefined ? KnownPacketSchema : GenericPacketSchema;
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    return { kind: 'decode_error', reason: `${knownType ?? kind}: ${describeIssues(parsed.error)}`, line };
  return { kind, part: parsed.data } as StreamPart;
}

function knownPacketType(value: object): string | undefined {
  const packetObj: unknown = (value as { obj?: unknown }).obj;
  if (typeof packetObj !== 'object' || packetObj === null) return undefined;
  const type: unknown = (packetObj as { type?: unknown }).type;
  return typeof type === 'string' && KNOWN_PACKET_TYPES.has(type) ? type : undefined;
}

/** `obj.documents[0].chunk_ind: expected number, received undefined; ...` (the first few issues). */
function describeIssues(error: z.ZodError): string {
  const described = error.issues.slice(0, MAX_REASON_ISSUES).map((issue) => {
    const path = issue.path
      .map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i === 0 ? '' : '.'}${String(key)}`))
      .join('');
    const message = issue.message.replace(/^Invalid input: /, '');
    return path === '' ? message : `${path}: ${message}`;
  });
  const more = error.issues.length - MAX_REASON_ISSUES;
  return more > 0 ? `${described.join('; ')}; and ${more} more` : described.join('; ');
}

const PART_SCHEMAS = {
  session_created: SessionCreatedPartSchema,
  message_ids: MessageIdsPartSchema,
  multi_model_ids: MultiModelIdsPartSchema,
  streaming_error: StreamingErrorPartSchema,
} as const;

function kindOf(value: object): Exclude<StreamPartKind, 'decode_error'> | undefined {
  if ('obj' in value && 'placement' in value) return 'packet';
  if ('error' in value) return 'streaming_error';
  if ('responses' in value) return 'multi_model_ids';
  if ('reserved_assistant_message_id' in value) return 'message_ids';
  if ('chat_session_id' in value) return 'session_created';
  return undefined;
}
