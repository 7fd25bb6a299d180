/**
 * @module sets/read-sets
 * Reads the model-override sets file (JSON, or YAML when named .yaml/.yml) and enforces the service's rules on overrides before
 * anything is sent. Every problem is listed at once as `file: json.path: message`.
 */
import type { z } from 'zod';
import { readUtf8File, type InputFile } from '../dataset/read-text.js';
import { InputError } from '../errors.js';
import { findJsonError } from './json-position.js';
import { isYamlName, parseYaml } from '../util/yaml.js';
import {
  MAX_MULTI_MODELS,
  SetEntrySchema,
  SetsDefaultsSchema,
  SetsFileSchema,
  StrictLLMOverrideSchema,
  toSetDefinition,
  type SetsFile,
} from './schema.js';

/**
 * Reads and validates the sets file at `file.path` (relative to `file.cwd`). A file without
 * `sets` (defaults only) gives no sets. Throws InputError listing every problem: not JSON (with
 * line and column), unknown fields, bad types, temperature outside 0–2, and `setRuleProblems`.
 */
export async function readSets(file: InputFile | string): Promise<SetsFile> {
  const input = typeof file === 'string' ? { path: file } : file;
  const text = await readUtf8File(input);
  return parseSetsText(text, input.path);
}

/** The same checks as `readSets`, over text already read; `name` is used in the messages. */
export function parseSetsText(text: string, name: string): SetsFile {
  let raw: unknown;
  try {
    raw = isYamlName(name) ? parseYaml(text, name, 'a sets file') : JSON.parse(text);
  } catch (error) {
    if (error instanceof InputError) throw error;
    const at = findJsonError(text);
    const where = at === undefined ? '' : ` at line ${at.line}, column ${at.column}`;
    throw new InputError([`${name}: not JSON: ${at?.reason ?? 'cannot be parsed'}${where}`], { cause: error });
  }
  const problems: Array<{ path: PropertyKey[]; message: string }> = [];
  const result = SetsFileSchema.safeParse(raw, { reportInput: true });
  if (!result.success) problems.push(...result.error.issues.flatMap(describeIssue));
  problems.push(...setRuleProblems(raw));
  if (problems.length > 0 || !result.success) {
    const lines = sortByPath(problems).map(
      ({ path, message }) => `${name}: ${formatPath(path) || '(top level)'}: ${message}`,
    );
    throw new InputError([...new Set(lines)]);
  }
  return { path: name, sets: result.data.sets.map(toSetDefinition), defaults: result.data.defaults };
}

type Problem = { path: PropertyKey[]; message: string };

/**
 * The rules a schema of one field cannot say: both override kinds in one set, a multi-model list
 * of the wrong length, duplicate names. Works on the raw JSON so they show alongside type errors.
 */
export function setRuleProblems(raw: unknown): Problem[] {
  const sets = isRecord(raw) && Array.isArray(raw.sets) ? raw.sets : [];
  const problems: Problem[] = [];
  const firstIndex = new Map<string, number>();
  sets.forEach((entry: unknown, index) => {
    if (!isRecord(entry)) return;
    const overrides = entry.llm_overrides;
    if (entry.llm_override != null && overrides != null) {
      problems.push({
        path: ['sets', index],
        message: 'has both llm_override and llm_overrides; give one (llm_overrides for multi-model)',
      });
    }
    if (Array.isArray(overrides)) {
      const message = multiLengthProblem(overrides.length);
      if (message !== undefined) problems.push({ path: ['sets', index, 'llm_overrides'], message });
      const deep =
        entry.deep_research ?? (isRecord(raw) && isRecord(raw.defaults) ? raw.defaults.deep_research : undefined);
      if (deep === true && overrides.length > 1) {
        problems.push({
          path: ['sets', index, 'deep_research' in entry ? 'deep_research' : 'llm_overrides'],
          message: `is multi-model with deep_research${'deep_research' in entry ? '' : ' (from defaults)'}: the service refuses deep research in multi-model mode (VALIDATION_ERROR); set "deep_research": false on this set`,
        });
      }
    }
    if (typeof entry.continue_with === 'number' && Number.isInteger(entry.continue_with) && entry.continue_with > 0) {
      const models = Array.isArray(overrides) ? overrides.length : 1;
      if (entry.continue_with >= models) {
        problems.push({
          path: ['sets', index, 'continue_with'],
          message: `${entry.continue_with} names no model of this set: it has ${models === 1 ? 'one model (continue_with 0)' : `${models} models (continue_with 0 to ${models - 1})`}`,
        });
      }
    }
    if (typeof entry.name === 'string' && entry.name !== '') {
      const first = firstIndex.get(entry.name);
      if (first === undefined) firstIndex.set(entry.name, index);
      else
        problems.push({
          path: ['sets', index, 'name'],
          message: `duplicate set name ${JSON.stringify(entry.name)} (first at sets[${first}])`,
        });
    }
  });
  return problems;
}

function multiLengthProblem(length: number): string | undefined {
  if (length === 0) return 'is empty: multi-model mode takes two or three entries (or leave it out)';
  if (length === 1) return 'has one entry: the service ignores a single entry; use llm_override';
  if (length > MAX_MULTI_MODELS)
    return `has ${length} entries: the service takes at most ${MAX_MULTI_MODELS} models at once`;
  return undefined;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Fields allowed where an unknown one was found, keyed by the path without indexes. */
const KNOWN_FIELDS: Record<string, string[]> = {
  '': Object.keys(SetsFileSchema.shape),
  sets: Object.keys(SetEntrySchema.shape),
  'sets.llm_override': Object.keys(StrictLLMOverrideSchema.shape),
  'sets.llm_overrides': Object.keys(StrictLLMOverrideSchema.shape),
  defaults: Object.keys(SetsDefaultsSchema.shape),
  'defaults.project': ['id', 'instructions'],
};

function describeIssue(issue: z.core.$ZodIssue): Problem[] {
  if (issue.code === 'unrecognized_keys') {
    const known = KNOWN_FIELDS[issue.path.filter((key) => typeof key === 'string').join('.')];
    const hint = known === undefined ? '' : ` (known fields: ${known.join(', ')})`;
    return issue.keys.map((key) => ({ path: [...issue.path, key], message: `unknown field${hint}` }));
  }
  // Only numbers are echoed: a string could be a secret header value.
  const got =
    (issue.code === 'too_big' || issue.code === 'too_small') && typeof issue.input === 'number'
      ? ` (got ${issue.input})`
      : '';
  return [{ path: issue.path, message: `${issue.message}${got}` }];
}

/** `['sets', 1, 'llm_overrides']` → `sets[1].llm_overrides`. */
export function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (out, key) => (typeof key === 'number' ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key)),
    '',
  );
}

/** File order: sets by index, then defaults, so the messages read top to bottom. */
function sortByPath(problems: Problem[]): Problem[] {
  const rank = (path: PropertyKey[]) => (path[0] === 'sets' ? 0 : path[0] === 'defaults' ? 2 : 1);
  const index = (path: PropertyKey[]) => (typeof path[1] === 'number' ? path[1] : -1);
  return [...problems].sort((a, b) => rank(a.path) - rank(b.path) || index(a.path) - index(b.path));
}
