/**
 * @module sim/validation
 * Request validation with the src/api schemas, reported as FastAPI/pydantic v2 reports it: each
 * zod issue becomes a pydantic error `{type, loc, msg, input, ctx?}` with `loc` starting at "body"
 * (or "path"). The 422 body has the description's shape (`{"detail": [...]}`) by default, or the
 * deployed service's (`{"status_code": 422, "message": "<str() of the errors>", "data": null}`).
 * Type names follow pydantic where the mapping is clear; a zod check with no pydantic twin keeps
 * zod's own message under pydantic's closest type.
 */
import type { z } from 'zod';
import type { PyJson } from './encode/index.js';
import { PyException, PyTuple, pyRepr } from './python-repr.js';

export const VALIDATION_SHAPES = ['description', 'deployed'] as const;
export type ValidationShape = (typeof VALIDATION_SHAPES)[number];

/** One error of a pydantic ValidationError as FastAPI lists them (no `url`). */
export interface PydanticError {
  readonly type: string;
  readonly loc: ReadonlyArray<string | number>;
  readonly msg: string;
  readonly input: unknown;
  /** A `PyException` value prints as `{}` in JSON (FastAPI's encoder) and as `ValueError('...')` in repr. */
  readonly ctx?: Readonly<Record<string, unknown>>;
}

type Issue = z.core.$ZodIssue;
type Loc = ReadonlyArray<string | number>;

const TYPE_NAMES: Readonly<Record<string, readonly [type: string, msg: string]>> = {
  string: ['string_type', 'Input should be a valid string'],
  number: ['float_type', 'Input should be a valid number'],
  int: ['int_from_float', 'Input should be a valid integer, got a number with a fractional part'],
  boolean: ['bool_type', 'Input should be a valid boolean'],
  array: ['list_type', 'Input should be a valid list'],
  object: ['dict_type', 'Input should be a valid dictionary'],
  record: ['dict_type', 'Input should be a valid dictionary'],
};

/** The value at `path` inside `root`, or undefined when a step is missing. */
function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current = root;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

const quoted = (values: readonly unknown[]): string => {
  const parts = values.map((value) => pyRepr(value));
  return parts.length <= 1 ? parts.join('') : `${parts.slice(0, -1).join(', ')} or ${parts.at(-1)}`;
};

/** A value error raised by a validator, as pydantic reports `raise ValueError(message)`. */
export function valueError(loc: Loc, message: string, input: unknown): PydanticError {
  return {
    type: 'value_error',
    loc,
    msg: `Value error, ${message}`,
    input,
    ctx: { error: new PyException('ValueError', message) },
  };
}

function fromIssue(issue: Issue, body: unknown, prefix: Loc): PydanticError {
  const path = issue.path.filter((key): key is string | number => typeof key !== 'symbol');
  const loc = [...prefix, ...path];
  const input = valueAt(body, issue.path);
  switch (issue.code) {
    case 'invalid_type': {
      if (input === undefined) {
        return {
          type: 'missing',
          loc,
          msg: 'Field required',
          input: issue.path.length === 0 ? null : valueAt(body, issue.path.slice(0, -1)),
        };
      }
      if (issue.path.length === 0 && issue.expected === 'object') {
        return {
          type: 'model_attributes_type',
          loc,
          msg: 'Input should be a valid dictionary or object to extract fields from',
          input,
        };
      }
      const [type, msg] = TYPE_NAMES[issue.expected] ?? ['value_error', issue.message];
      return { type, loc, msg, input };
    }
    case 'too_small':
      if (issue.origin === 'array' || issue.origin === 'string') {
        const min = Number(issue.minimum);
        const noun = issue.origin === 'array' ? 'List' : 'String';
        const unit = issue.origin === 'array' ? 'item' : 'character';
        const actual = Array.isArray(input) || typeof input === 'string' ? input.length : 0;
        return {
          type: 'too_short',
          loc,
          msg: `${noun} should have at least ${min} ${unit}${min === 1 ? '' : 's'} after validation, not ${actual}`,
          input,
          ctx: { field_type: noun, min_length: min, actual_length: actual },
        };
      }
      return issue.inclusive
        ? {
            type: 'greater_than_equal',
            loc,
            msg: `Input should be greater than or equal to ${String(issue.minimum)}`,
            input,
            ctx: { ge: Number(issue.minimum) },
          }
        : {
            type: 'greater_than',
            loc,
            msg: `Input should be greater than ${String(issue.minimum)}`,
            input,
            ctx: { gt: Number(issue.minimum) },
          };
    case 'too_big':
      return issue.inclusive
        ? {
            type: 'less_than_equal',
            loc,
            msg: `Input should be less than or equal to ${String(issue.maximum)}`,
            input,
            ctx: { le: Number(issue.maximum) },
          }
        : {
            type: 'less_than',
            loc,
            msg: `Input should be less than ${String(issue.maximum)}`,
            input,
            ctx: { lt: Number(issue.maximum) },
          };
    case 'invalid_value':
      return {
        type: 'enum',
        loc,
        msg: `Input should be ${quoted(issue.values)}`,
        input,
        ctx: { expected: quoted(issue.values) },
      };
    case 'invalid_format':
      if (issue.format === 'uuid')
        return {
          type: 'uuid_parsing',
          loc,
          msg: 'Input should be a valid UUID, unable to parse string as a UUID',
          input,
        };
      if (issue.format === 'datetime')
        return {
          type: 'datetime_from_date_parsing',
          loc,
          msg: 'Input should be a valid datetime or date, invalid character in year',
          input,
        };
      return {
        type: 'string_pattern_mismatch',
        loc,
        msg: `String should match pattern '${issue.pattern ?? ''}'`,
        input,
        ctx: { pattern: issue.pattern ?? '' },
      };
    default:
      return valueError(loc, issue.message, input);
  }
}

/** The pydantic errors of a failed zod parse of `body`, located under `prefix` ("body" by default). */
export function pydanticErrors(error: z.ZodError, body: unknown, prefix: Loc = ['body']): PydanticError[] {
  return error.issues.map((issue) => fromIssue(issue, body, prefix));
}

/** FastAPI's error for a body that is not JSON; `position` is the character where parsing failed. */
export function jsonInvalidError(position: number, reason: string): PydanticError {
  return { type: 'json_invalid', loc: ['body', position], msg: 'JSON decode error', input: {}, ctx: { error: reason } };
}

/** FastAPI's jsonable_encoder turns an exception in ctx into `{}`. */
// Inputs and ctx values come from JSON.parse or are built here from JSON-safe values.
function toJsonError(error: PydanticError): PyJson {
  const { ctx, ...rest } = error;
  if (ctx === undefined) return { ...rest } as PyJson;
  const jsonCtx = Object.fromEntries(
    Object.entries(ctx).map(([key, value]) => [key, value instanceof PyException ? {} : value]),
  );
  return { ...rest, ctx: jsonCtx } as PyJson;
}

/** The text of str(RequestValidationError) after the deployed handler folds its newlines. */
export function deployedMessage(errors: readonly PydanticError[]): string {
  const items = errors.map((error) => pyRepr({ ...error, loc: new PyTuple(error.loc) }));
  return `${errors.length} validation error${errors.length === 1 ? '' : 's'}: ${items.join(' ')}`;
}

/** The 422 body in the configured shape. */
export function validationErrorBody(errors: readonly PydanticError[], shape: ValidationShape): PyJson {
  if (shape === 'deployed') return { status_code: 422, message: deployedMessage(errors), data: null };
  return { detail: errors.map(toJsonError) };
}
