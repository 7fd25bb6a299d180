/**
 * @module dataset/schema
 * One dataset row: the cells csv-parse gives (strings keyed by column name) in, the typed row the
 * rest of chatbench sees out. Every cell rule reports its own issue with the column as the path,
 * so the reader can print `file:line: column: message` for each problem at once.
 */
import type { Expectations } from '../records/expectations.js';
import { canonicalPattern, compilePattern } from '../records/patterns.js';
import type { LabelVerdict } from '../records/quality.js';
import { z } from 'zod';
import { DateTimeSchema, DocumentSourceSchema, type BaseFilters } from '../api/index.js';
import { canonicalToolName } from '../records/tools.js';

/** Columns with a meaning; any other column is kept as metadata. Names are lowercase, exact. */
export const KNOWN_COLUMNS = [
  'id',
  'question',
  'expected_documents',
  'must_contain',
  'must_not_contain',
  'expect_no_answer',
  'category',
  'persona_id',
  'project_id',
  'additional_context',
  'source_type',
  'document_set',
  'tags',
  'time_cutoff',
  'deep_research',
  'reference_answer',
  'rubric',
  'human_verdict',
  'must_match',
  'must_not_match',
  'conversation',
  'turn',
  'expected_tools',
  'forced_tool',
] as const;
export type KnownColumn = (typeof KNOWN_COLUMNS)[number];
const KNOWN = new Set<string>(KNOWN_COLUMNS);
export const isKnownColumn = (name: string): name is KnownColumn => KNOWN.has(name);

type Ctx = z.RefinementCtx;
const issue = (ctx: Ctx, message: string) => ctx.addIssue({ code: 'custom', message });
const quote = (text: string) => JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}...` : text);

/** A cell that may be absent (no such column) or empty; both read as ''. */
const cell = z
  .string()
  .optional()
  .transform((value) => value ?? '');

/** `a|b` or a JSON array of strings. Ids are taken verbatim: surrounding spaces are an error, not trimmed. */
function parseIdList(value: string, ctx: Ctx): string[] {
  const trimmed = value.trim();
  if (trimmed === '') return [];
  let elements: unknown[];
  if (trimmed.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (!Array.isArray(parsed)) throw new Error('not an array');
      elements = parsed;
    } catch {
      issue(ctx, 'not a JSON array of strings (or use ids separated by "|")');
      return [];
    }
  } else {
    elements = value.split('|');
  }
  const ids: string[] = [];
  const firstAt = new Map<string, number>();
  elements.forEach((element, index) => {
    const n = index + 1;
    if (typeof element !== 'string') issue(ctx, `element ${n} is not a string`);
    else if (element.trim() === '') issue(ctx, `element ${n} is empty`);
    else if (element !== element.trim()) issue(ctx, `element ${n} ${quote(element)} has surrounding spaces`);
    else if (firstAt.has(element)) issue(ctx, `element ${n} ${quote(element)} repeats element ${firstAt.get(element)}`);
    else {
      firstAt.set(element, n);
      ids.push(element);
    }
  });
  return ids;
}

/** `a|b` where the spaces around each element are layout, not content; an empty element is a typo. */
function parsePhraseList(value: string, ctx: Ctx): string[] {
  if (value.trim() === '') return [];
  const phrases = value.split('|').map((phrase) => phrase.trim());
  phrases.forEach((phrase, index) => {
    if (phrase === '') issue(ctx, `element ${index + 1} is empty`);
  });
  return phrases.filter((phrase) => phrase !== '');
}

const BOOLEANS: Record<string, boolean> = {
  true: true,
  yes: true,
  1: true,
  false: false,
  no: false,
  0: false,
  '': false,
};

function parseBoolean(value: string, ctx: Ctx): boolean {
  const parsed = BOOLEANS[value.trim().toLowerCase()];
  if (parsed === undefined)
    issue(ctx, `${quote(value)} is not a boolean (use true/false, yes/no, 1/0, or leave it empty)`);
  return parsed ?? false;
}

/** A boolean where an empty cell means "not said" (the set's or the defaults' value applies). */
function parseOptionalBoolean(value: string, ctx: Ctx): boolean | null {
  return value.trim() === '' ? null : parseBoolean(value, ctx);
}

function parseInteger(value: string, ctx: Ctx): number | null {
  const trimmed = value.trim();
  if (trimmed === '') return null;
  const parsed = Number(trimmed);
  if (!/^-?\d+$/.test(trimmed) || !Number.isSafeInteger(parsed)) {
    issue(ctx, `${quote(value)} is not an integer`);
    return null;
  }
  return parsed;
}

function parseSources(value: string, ctx: Ctx): string[] {
  return parsePhraseList(value, ctx).filter((source, index) => {
    const ok = DocumentSourceSchema.safeParse(source).success;
    if (!ok)
      issue(
        ctx,
        `element ${index + 1} ${quote(source)} is not a source type (a lowercase identifier such as "web" or "github")`,
      );
    return ok;
  });
}

function parseTags(value: string, ctx: Ctx): Array<{ tag_key: string; tag_value: string }> {
  if (value.trim() === '') return [];
  return value.split('|').flatMap((element, index) => {
    const at = element.indexOf('=');
    const key = element.slice(0, at).trim();
    const tagValue = element.slice(at + 1).trim();
    if (at === -1 || key === '' || tagValue === '') {
      issue(ctx, `element ${index + 1} ${quote(element.trim())} is not key=value`);
      return [];
    }
    return [{ tag_key: key, tag_value: tagValue }];
  });
}

function parseDateTime(value: string, ctx: Ctx): string | null {
  const trimmed = value.trim();
  if (trimmed === '') return null;
  if (!DateTimeSchema.safeParse(trimmed).success) {
    issue(ctx, `${quote(value)} is not an ISO date-time (e.g. 2024-05-01T00:00:00Z)`);
    return null;
  }
  return trimmed;
}

/**
 * One regular expression, or a JSON array of them (`|` is part of a pattern, so it cannot separate
 * them). A pattern is `/source/flags` or bare (then case-insensitive); each is compiled here, so a
 * bad one is reported with its line before anything is sent.
 */
function parsePatterns(value: string, ctx: Ctx): string[] {
  const trimmed = value.trim();
  if (trimmed === '') return [];
  let elements: unknown[] = [trimmed];
  if (trimmed.startsWith('[') && trimmed.endsWith(']')) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (Array.isArray(parsed)) elements = parsed;
    } catch {
      // Not JSON: a pattern that happens to be a character class, e.g. [0-9]+ … ]
    }
  }
  const patterns: string[] = [];
  elements.forEach((element, index) => {
    const where = elements.length > 1 ? `element ${index + 1}: ` : '';
    if (typeof element !== 'string' || element.trim() === '')
      return issue(ctx, `${where}not a pattern (a non-empty string)`);
    const pattern = canonicalPattern(element.trim());
    try {
      compilePattern(pattern);
      patterns.push(pattern);
    } catch (error) {
      issue(ctx, `${where}invalid regular expression ${quote(element.trim())}: ${(error as Error).message}`);
    }
  });
  return patterns;
}

const VERDICTS: Record<string, LabelVerdict> = {
  pass: 'pass',
  fail: 'fail',
  good: 'pass',
  bad: 'fail',
  true: 'pass',
  false: 'fail',
  yes: 'pass',
  no: 'fail',
  1: 'pass',
  0: 'fail',
};

function parseVerdict(value: string, ctx: Ctx): LabelVerdict | null {
  const trimmed = value.trim().toLowerCase();
  if (trimmed === '') return null;
  const verdict = VERDICTS[trimmed];
  if (verdict === undefined)
    issue(ctx, `${quote(value)} is not a verdict (pass or fail; good/bad, true/false, yes/no, 1/0 also read)`);
  return verdict ?? null;
}

const text = (value: string): string | null => (value.trim() === '' ? null : value.trim());

/** A turn number: 1, 2, …; empty means none. */
function parseTurn(value: string, ctx: Ctx): number | null {
  const trimmed = value.trim();
  if (trimmed === '') return null;
  if (!/^\d+$/.test(trimmed) || Number(trimmed) < 1 || !Number.isSafeInteger(Number(trimmed))) {
    issue(ctx, `${quote(value)} is not a turn number (1, 2, …)`);
    return null;
  }
  return Number(trimmed);
}

/** Tool names separated by `|`, each once (records/tools.ts: aliases and case read as one name). */
function parseToolNames(value: string, ctx: Ctx): string[] {
  const names = parsePhraseList(value, ctx);
  const firstAt = new Map<string, number>();
  return names.filter((name, index) => {
    const key = canonicalToolName(name);
    const first = firstAt.get(key);
    if (first !== undefined) {
      issue(ctx, `element ${index + 1} ${quote(name)} names the same tool as element ${first}`);
      return false;
    }
    firstAt.set(key, index + 1);
    return true;
  });
}

/** `forced_tool`: a tool id (an integer) or a tool name; resolved to an id before anything is sent. */
export type ForcedTool = { id: number } | { name: string };

function parseForcedTool(value: string, ctx: Ctx): ForcedTool | null {
  const trimmed = value.trim();
  if (trimmed === '') return null;
  if (/^-?\d+$/.test(trimmed)) {
    const id = Number(trimmed);
    if (!Number.isSafeInteger(id) || id < 0) {
      issue(ctx, `${quote(value)} is not a tool id (a non-negative integer) or a tool name`);
      return null;
    }
    return { id };
  }
  if (trimmed.includes('|')) issue(ctx, `${quote(value)}: one tool only (the service forces one tool per message)`);
  return { name: trimmed };
}

function required(value: string, ctx: Ctx): string {
  if (value.trim() === '') issue(ctx, 'is empty');
  return value.trim();
}

/**
 * One row in: `line` (where the record starts), a cell per known column that the file has (`id`
 * already defaulted to the row number by the reader), and every other column in `metadata`.
 * One row out: the typed row. Issues carry the column name as their path.
 */
export const DatasetRowSchema = z
  .object({
    line: z.number().int().positive(),
    id: z.string().transform(required),
    question: cell.transform(required),
    expected_documents: cell.transform(parseIdList),
    must_contain: cell.transform(parsePhraseList),
    must_not_contain: cell.transform(parsePhraseList),
    expect_no_answer: cell.transform(parseBoolean),
    category: cell.transform(text),
    persona_id: cell.transform(parseInteger),
    project_id: cell.transform(parseInteger),
    additional_context: cell.transform(text),
    source_type: cell.transform(parseSources),
    document_set: cell.transform(parsePhraseList),
    tags: cell.transform(parseTags),
    time_cutoff: cell.transform(parseDateTime),
    deep_research: cell.transform(parseOptionalBoolean),
    reference_answer: cell.transform(text),
    rubric: cell.transform(text),
    human_verdict: cell.transform(parseVerdict),
    must_match: cell.transform(parsePatterns),
    must_not_match: cell.transform(parsePatterns),
    conversation: cell.transform(text),
    turn: cell.transform(parseTurn),
    expected_tools: cell.transform(parseToolNames),
    forced_tool: cell.transform(parseForcedTool),
    metadata: z.record(z.string(), z.string()).default({}),
  })
  .transform((row) => ({
    id: row.id,
    question: row.question,
    line: row.line,
    expectations: {
      expected_document_ids: row.expected_documents,
      must_contain: row.must_contain,
      must_not_contain: row.must_not_contain,
      expect_no_answer: row.expect_no_answer,
      must_match: row.must_match,
      must_not_match: row.must_not_match,
      reference_answer: row.reference_answer,
      rubric: row.rubric,
      human_verdict: row.human_verdict,
      expected_tools: row.expected_tools,
    } satisfies Expectations,
    category: row.category,
    persona_id: row.persona_id,
    project_id: row.project_id,
    additional_context: row.additional_context,
    /** Ask with deep research (true/false); null: the set's or the defaults' choice. */
    deep_research: row.deep_research,
    /** The conversation this row is a turn of, and its turn number; both null for a question on its own (dataset/conversations.ts checks them together). */
    conversation: row.conversation,
    turn: row.turn,
    /** The tool the service must use for this message: an id, or a name resolved before anything is sent. */
    forced_tool: row.forced_tool,
    filters: toFilters(row),
    metadata: row.metadata,
  }));
/** The cells of one row as the reader hands them over. */
export type DatasetRowInput = z.input<typeof DatasetRowSchema>;
/** A row as the rest of chatbench sees it. */
export type DatasetRow = z.output<typeof DatasetRowSchema>;

/** Only the filters the row gives; null when it gives none, so the request carries none. */
function toFilters(row: {
  source_type: string[];
  document_set: string[];
  tags: NonNullable<BaseFilters['tags']>;
  time_cutoff: string | null;
}): BaseFilters | null {
  const filters: BaseFilters = {};
  if (row.source_type.length > 0) filters.source_type = row.source_type;
  if (row.document_set.length > 0) filters.document_set = row.document_set;
  if (row.tags.length > 0) filters.tags = row.tags;
  if (row.time_cutoff !== null) filters.time_cutoff = row.time_cutoff;
  return Object.keys(filters).length > 0 ? filters : null;
}
