/**
 * @module util/jsonl-line
 * One line of an append-only JSONL file that people and the viewer write to (reviews.jsonl,
 * expectations.jsonl): blank lines are nothing; a last line without its newline that is not JSON
 * is a torn append (the writer died mid-line), not an error; every other bad line is a problem
 * `file:line: field: message`.
 */
import type { z } from 'zod';

export type JsonlLine<T> =
  { kind: 'blank' } | { kind: 'torn' } | { kind: 'value'; value: T } | { kind: 'problems'; problems: string[] };

/** `line` (without its newline, 1-based `number`, `terminated` when a newline followed it) checked against `schema`; `what` names the whole line in a problem. */
export function parseJsonlLine<T>(
  schema: z.ZodType<T>,
  what: string,
  file: string,
  line: string,
  number: number,
  terminated: boolean,
): JsonlLine<T> {
  if (line.trim() === '') return { kind: 'blank' };
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch (error) {
    if (!terminated) return { kind: 'torn' };
    return { kind: 'problems', problems: [`${file}:${number}: not JSON (${(error as Error).message})`] };
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return { kind: 'value', value: parsed.data };
  return {
    kind: 'problems',
    problems: parsed.error.issues.map((i) => `${file}:${number}: ${i.path.join('.') || what}: ${i.message}`),
  };
}
