import { describe, expect, it } from 'vitest';
import {
  CodedErrorSchema,
  DeployedValidationErrorSchema,
  DetailErrorSchema,
  HTTPValidationErrorSchema,
  MULTI_MODEL_REQUIRES_STREAM_DETAIL,
  NOT_AUTHENTICATED_DETAIL,
  PROJECT_NOT_FOUND_DETAIL,
  RateLimitedBodySchema,
} from './error-bodies.js';

/** docs/reference/service-api.md "Validation errors": the description's 422. */
const DESCRIBED_422 = {
  detail: [
    { loc: ['body', 'message'], msg: 'Field required', type: 'missing', input: { stream: true } },
    {
      loc: ['body', 'llm_override', 'temperature'],
      msg: 'Input should be less than or equal to 2',
      type: 'less_than_equal',
      input: 2.5,
      ctx: { le: 2 },
    },
    { loc: ['path', 'project_id'], msg: 'Input should be a valid integer', type: 'int_parsing' },
  ],
};
/** docs/reference/wire-format.md: the deployed service's 422. */
const DEPLOYED_422 = {
  status_code: 422,
  message:
    "1 validation error: {'type': 'missing', 'loc': ('body', 'message'), 'msg': 'Field required', 'input': {'stream': True}}",
  data: null,
};

describe('validation error bodies', () => {
  it('round-trips the described 422, with and without input/ctx', () => {
    expect(HTTPValidationErrorSchema.parse(DESCRIBED_422)).toEqual(DESCRIBED_422);
  });

  it('round-trips the deployed 422', () => {
    expect(DeployedValidationErrorSchema.parse(DEPLOYED_422)).toEqual(DEPLOYED_422);
  });

  it('tells the two shapes apart', () => {
    expect(HTTPValidationErrorSchema.safeParse(DEPLOYED_422).success).toBe(false);
    expect(DeployedValidationErrorSchema.safeParse(DESCRIBED_422).success).toBe(false);
  });

  it('rejects a described 422 whose loc holds something other than strings and integers', () => {
    expect(HTTPValidationErrorSchema.safeParse({ detail: [{ loc: [true], msg: 'm', type: 't' }] }).success).toBe(false);
  });
});

describe('429 RATE_LIMITED', () => {
  it('round-trips the usage-budget body (sent with Retry-After)', () => {
    const body = {
      scope: 'user',
      reset_at: '2025-09-14T11:00:00Z',
      retry_after_seconds: 1800,
      error_code: 'RATE_LIMITED',
      detail: 'Usage limit reached for user. Try again later.',
    };
    expect(RateLimitedBodySchema.parse(body)).toEqual(body);
  });

  it('accepts the hosted API limit body, which has only the code and detail', () => {
    expect(RateLimitedBodySchema.parse({ error_code: 'RATE_LIMITED', detail: 'API call limit reached' })).toEqual({
      error_code: 'RATE_LIMITED',
      detail: 'API call limit reached',
    });
  });

  it('refuses another error_code', () => {
    expect(RateLimitedBodySchema.safeParse({ error_code: 'RATE_LIMIT', detail: 'x' }).success).toBe(false);
  });
});

describe('other error bodies', () => {
  it.each([
    { status: 400, body: { error_code: 'INVALID_INPUT', detail: MULTI_MODEL_REQUIRES_STREAM_DETAIL } },
    { status: 403, body: { error_code: 'INSUFFICIENT_PERMISSIONS', detail: 'Missing scope read:search' } },
    { status: 502, body: { error_code: 'BAD_GATEWAY', detail: 'Web content provider failed' } },
  ])('$status coded body round-trips', ({ body }) => expect(CodedErrorSchema.parse(body)).toEqual(body));

  it.each([NOT_AUTHENTICATED_DETAIL, PROJECT_NOT_FOUND_DETAIL, 'Internal Server Error'])(
    'detail body %j round-trips',
    (detail) => {
      expect(DetailErrorSchema.parse({ detail })).toEqual({ detail });
    },
  );

  it('the exact texts of the deployed service', () => {
    expect(NOT_AUTHENTICATED_DETAIL).toBe('Access denied. User is not authenticated.');
    expect(MULTI_MODEL_REQUIRES_STREAM_DETAIL).toBe(
      'Multi-model mode (llm_overrides with >1 entry) requires stream=True.',
    );
  });
});
