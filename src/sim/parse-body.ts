/**
 * @module sim/parse-body
 * Reads and validates a JSON request body, answering 413 or 422 itself when it cannot. Unknown
 * fields are dropped by the schemas (the service ignores them).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import { readBody } from './http.js';
import { replyTooLarge, replyValidation } from './replies.js';
import type { PydanticError, ValidationShape } from './validation.js';
import { jsonInvalidError, pydanticErrors } from './validation.js';

export interface BodyOptions {
  readonly maxBodyBytes: number;
  readonly validationShape: ValidationShape;
}

/** Checks around the schema. */
export interface BodyChecks<T> {
  /** Runs after the schema passed (pydantic's validators); returns the errors it finds. */
  readonly after?: (value: T, raw: unknown) => PydanticError[];
  /** Errors found before the body (path parameters); FastAPI reports them with the body's. */
  readonly prior?: readonly PydanticError[];
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: PydanticError } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // Node names the position for most errors; "Unexpected end" means the end of the text.
    const named = /position (\d+)/.exec(message)?.[1];
    const position = named !== undefined ? Number(named) : message.includes('end of JSON') ? text.length : 0;
    return { ok: false, error: jsonInvalidError(position, message.replace(/ in JSON at position \d+.*$/, '')) };
  }
}

/**
 * The validated body, or undefined once a 413/422 has been sent (or the client went away).
 * An empty body is "missing", as FastAPI reports a required body that was not sent.
 */
export async function readValidBody<S extends z.ZodType>(
  req: IncomingMessage,
  res: ServerResponse,
  schema: S,
  options: BodyOptions,
  checks: BodyChecks<z.output<S>> = {},
): Promise<z.output<S> | undefined> {
  const prior = checks.prior ?? [];
  const body = await readBody(req, options.maxBodyBytes);
  if (body.kind === 'aborted') return undefined;
  if (body.kind === 'too_large') {
    replyTooLarge(res, options.maxBodyBytes);
    return undefined;
  }
  if (body.text.trim() === '') {
    replyValidation(
      res,
      [...prior, { type: 'missing', loc: ['body'], msg: 'Field required', input: null }],
      options.validationShape,
    );
    return undefined;
  }
  const json = parseJson(body.text);
  if (!json.ok) {
    replyValidation(res, [json.error], options.validationShape);
    return undefined;
  }
  const parsed = schema.safeParse(json.value);
  const bodyErrors = parsed.success
    ? (checks.after?.(parsed.data, json.value) ?? [])
    : pydanticErrors(parsed.error, json.value);
  const errors = [...prior, ...bodyErrors];
  if (errors.length > 0 || !parsed.success) {
    replyValidation(res, errors, options.validationShape);
    return undefined;
  }
  return parsed.data;
}
