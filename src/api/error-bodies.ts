/**
 * @module api/error-bodies
 * Error bodies of the service (docs/reference/service-api.md "Errors", docs/reference/wire-format.md "Errors and their bodies").
 */
import { z } from 'zod';

export const ValidationErrorSchema = z.looseObject({
  loc: z.array(z.union([z.string(), z.number()])),
  msg: z.string(),
  type: z.string(),
  input: z.unknown().optional(),
  ctx: z.record(z.string(), z.unknown()).optional(),
});
/** The description's 422 body. */
export const HTTPValidationErrorSchema = z.looseObject({ detail: z.array(ValidationErrorSchema) });
export type HTTPValidationError = z.infer<typeof HTTPValidationErrorSchema>;

/** The deployed service's 422 body. */
export const DeployedValidationErrorSchema = z.looseObject({
  status_code: z.literal(422),
  message: z.string(),
  data: z.null(),
});

/** 400, 403 scope, 429, 502: a stable `error_code` and a human `detail`. */
export const CodedErrorSchema = z.looseObject({ error_code: z.string(), detail: z.string() });

/** 429 of a usage budget; comes with a `Retry-After` header. The hosted API limit sends only the code. */
export const RateLimitedBodySchema = z.looseObject({
  error_code: z.literal('RATE_LIMITED'),
  detail: z.string(),
  scope: z.string().optional(),
  reset_at: z.string().optional(),
  retry_after_seconds: z.number().optional(),
});
export type RateLimitedBody = z.infer<typeof RateLimitedBodySchema>;

/** 403 unauthenticated, 404 project, 500. */
export const DetailErrorSchema = z.looseObject({ detail: z.string() });

export const NOT_AUTHENTICATED_DETAIL = 'Access denied. User is not authenticated.';
export const PROJECT_NOT_FOUND_DETAIL = 'Project not found';
export const MULTI_MODEL_REQUIRES_STREAM_DETAIL =
  'Multi-model mode (llm_overrides with >1 entry) requires stream=True.';

/**
 * Mid-stream `error_code` values the deployed service sends, over every listed release
 * (docs/reference/onyx-releases.md): TOOL_CALL_FAILED (v2.7–v2.8), EMPTY_LLM_RESPONSE (v3.1+), the classified
 * model errors (v4.2+), MODEL_REFUSAL (v4.5+, backported to v4.4.9). Another code is kept as sent.
 */
export const STREAMING_ERROR_CODES = [
  'RATE_LIMIT',
  'CONTEXT_TOO_LONG',
  'AUTH_ERROR',
  'BUDGET_EXCEEDED',
  'SERVICE_UNAVAILABLE',
  'CONNECTION_ERROR',
  'MODEL_ERROR',
  'EMPTY_LLM_RESPONSE',
  'VALIDATION_ERROR',
  'INIT_FAILED',
  'UNKNOWN_ERROR',
  'TOOL_CALL_FAILED',
  'MODEL_REFUSAL',
  'CONTENT_POLICY',
  'BAD_REQUEST',
  'PERMISSION_DENIED',
  'NOT_FOUND',
  'UNPROCESSABLE_ENTITY',
  'REQUEST_TOO_LARGE',
  'API_ERROR',
  'STREAM_WRITER_ERROR',
] as const;
export type StreamingErrorCode = (typeof STREAMING_ERROR_CODES)[number];
