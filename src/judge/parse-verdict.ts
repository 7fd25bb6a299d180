/**
 * @module judge/parse-verdict
 * Reads a verdict out of whatever a judge model replied: bare JSON (structured output), JSON in a
 * Markdown code fence or amid prose (models without structured output), after a reasoning model's
 * `<think>…</think>` block. Lenient in form, strict in meaning: the score must be a number in
 * [0, 1] (a numeric string is read), a pass a boolean (or pass/fail, yes/no, true/false).
 */
import { z } from 'zod';
import type { VERDICT_JSON_SCHEMAS } from '../api/judge.js';

export type VerdictKind = keyof typeof VERDICT_JSON_SCHEMAS;
export type ParsedVerdict = { score: number; reason: string | null } | { error: string };

const MAX_CANDIDATES = 20;

/** JSON objects in `text`, most likely first: the whole text, fenced blocks, then each balanced {...}. */
function candidates(text: string): unknown[] {
  const found: unknown[] = [];
  const tryParse = (s: string) => {
    try {
      const value: unknown = JSON.parse(s);
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) found.push(value);
    } catch {
      // not JSON: try the next candidate
    }
  };
  tryParse(text);
  for (const fence of text.matchAll(/```(?:json|JSON)?\s*\n?([\s\S]*?)```/g)) tryParse((fence[1] ?? '').trim());
  for (
    let start = text.indexOf('{'), tries = 0;
    start !== -1 && tries < MAX_CANDIDATES;
    start = text.indexOf('{', start + 1), tries += 1
  ) {
    const end = balancedEnd(text, start);
    if (end !== -1) tryParse(text.slice(start, end + 1));
  }
  return found;
}

/** Index of the `}` closing the `{` at `start` (strings respected), or -1. */
function balancedEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i += 1) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i += 1;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{') depth += 1;
    else if (ch === '}' && --depth === 0) return i;
  }
  return -1;
}

const PASS_WORDS: Record<string, boolean> = {
  true: true,
  pass: true,
  passed: true,
  yes: true,
  false: false,
  fail: false,
  failed: false,
  no: false,
};

const Reason = z
  .union([z.string(), z.null()])
  .optional()
  .transform((r) => (typeof r === 'string' && r.trim() !== '' ? r.trim() : null));
const ScoreField = z.union([
  z.number(),
  z
    .string()
    .regex(/^\s*[+-]?(\d+\.?\d*|\.\d+)\s*$/)
    .transform(Number),
]);
const PassField = z.union([
  z.boolean(),
  z.string().transform((s, ctx) => {
    const value = PASS_WORDS[s.trim().toLowerCase()];
    if (value !== undefined) return value;
    ctx.addIssue({ code: 'custom', message: 'not a pass or fail' });
    return z.NEVER;
  }),
]);
const VerdictObject = z.looseObject({
  score: ScoreField.optional(),
  pass: PassField.optional(),
  verdict: PassField.optional(),
  reason: Reason,
});

/** The verdict in a judge's reply; `kind` says whether a score or a pass is asked for (either form is read). */
export function parseVerdict(reply: string, kind: VerdictKind): ParsedVerdict {
  const text = reply.replace(/<think>[\s\S]*?<\/think>/gi, '').trim();
  if (text === '') return { error: 'the judge replied with nothing' };
  for (const candidate of candidates(text)) {
    const parsed = VerdictObject.safeParse(candidate);
    if (!parsed.success) continue;
    const { score, pass, verdict, reason } = parsed.data;
    const passed = pass ?? verdict;
    if (kind === 'pass' && passed !== undefined) return { score: passed ? 1 : 0, reason };
    if (score !== undefined) {
      if (!(score >= 0 && score <= 1)) return { error: `the judge's score ${score} is outside 0–1` };
      return { score, reason };
    }
    if (passed !== undefined) return { score: passed ? 1 : 0, reason };
  }
  const snippet = text.length > 120 ? `${text.slice(0, 117)}...` : text;
  return { error: `no verdict in the judge's reply: ${JSON.stringify(snippet)}` };
}
