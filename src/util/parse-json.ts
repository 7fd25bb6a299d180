/**
 * @module util/parse-json
 * A JSON file's text checked against its schema, every problem listed at once as
 * `file: path.to.field: message` (style.md rule 9). One rule for every file chatbench reads back:
 * gates files, manifests, summaries, generator.json.
 */
import type { z } from 'zod';
import { InputError } from '../errors.js';

/** `file: path: message` lines of a zod error; `prefix` is prepended to each path (e.g. `gates.3`). */
export function zodProblems(file: string, error: z.ZodError, prefix: ReadonlyArray<string | number> = []): string[] {
  return error.issues.map(
    (issue) => `${file}: ${[...prefix, ...issue.path].join('.') || '(top level)'}: ${issue.message}`,
  );
}

/** Parses `text` as JSON and validates it; throws one InputError naming `file` with every problem. */
export function parseJsonText<S extends z.ZodType>(
  text: string,
  file: string,
  schema: S,
  options: { hint?: string } = {},
): z.output<S> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new InputError([`${file}: not JSON (${(error as Error).message})`], { cause: error });
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success)
    throw new InputError(zodProblems(file, parsed.error), options.hint === undefined ? {} : { hint: options.hint });
  return parsed.data;
}
