/**
 * @module cli/body-cap-flags
 * The caps on what one response may make chatbench read, shared by `eval` and `load` (the body, a
 * stream line, an error body): declared once, and checked before anything is sent into the byte
 * counts the HTTP client takes (docs/limits.md).
 */
import { parseBytes } from './bytes.js';

export interface BodyCapArgs {
  'max-body-bytes'?: string | undefined;
  'max-line-bytes'?: string | undefined;
  'max-error-body-bytes'?: string | undefined;
}

export const BODY_CAP_OPTIONS = {
  'max-body-bytes': {
    type: 'string',
    default: '64MiB',
    describe:
      'Most bytes one response may carry (a stream in all, a full answer, an open-urls answer, project instructions); past it the request is invalid_response BODY_TOO_LARGE',
    group: 'Run:',
  },
  'max-line-bytes': {
    type: 'string',
    default: '16MiB',
    describe: 'Most bytes of one stream line or SSE event; a longer one is a decode error (invalid_response)',
    group: 'Run:',
  },
  'max-error-body-bytes': {
    type: 'string',
    default: '64KiB',
    describe: 'Most bytes of an error body (status >= 300) read for its code and message; the attempt ends there',
    group: 'Run:',
  },
} as const;

/** The three caps in bytes; a size that is not one is a UsageError naming its flag. */
export function bodyCapsOf(a: BodyCapArgs): { maxBodyBytes: number; maxLineBytes: number; maxErrorBodyBytes: number } {
  const cap = (key: keyof BodyCapArgs) => parseBytes(a[key] ?? BODY_CAP_OPTIONS[key].default, key);
  return {
    maxBodyBytes: cap('max-body-bytes'),
    maxLineBytes: cap('max-line-bytes'),
    maxErrorBodyBytes: cap('max-error-body-bytes'),
  };
}
