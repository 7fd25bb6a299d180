/**
 * @module viewer/ui/judge-lines
 * A record's `judge` field (records/quality JudgementSchema) as the lines the question page shows.
 * Read as JSON from a run of any version: a shape this code does not know gives null, and the page
 * then shows the field as it is.
 */
/** One judged figure as the line shows it. */
export interface JudgeLine {
  readonly figure: string;
  /** The score in [0, 1]; null when the judge failed. */
  readonly score: number | null;
  readonly reason: string | null;
  readonly error: string | null;
  /** How many times the judge was asked (--judge-repeat), when more than once. */
  readonly asks: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** The lines of a `judge` field (records/quality JudgementSchema): not-applicable figures left out; null for a shape not known. */
export function judgeLines(judge: unknown): JudgeLine[] | null {
  if (!isObject(judge) || !isObject(judge.verdicts)) return null;
  const lines: JudgeLine[] = [];
  for (const [figure, v] of Object.entries(judge.verdicts)) {
    if (!isObject(v) || typeof v.status !== 'string') return null;
    if (v.status === 'not_applicable') continue;
    lines.push({
      figure,
      score: typeof v.score === 'number' ? v.score : null,
      reason: text(v.reason),
      error: v.status === 'judge_error' ? (text(v.error) ?? 'no verdict') : null,
      asks: Array.isArray(v.asks) ? v.asks.length : 1,
    });
  }
  return lines;
}
