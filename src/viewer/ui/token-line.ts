/**
 * @module viewer/ui/token-line
 * One answer's token figures and its own ITL as the question page's line: what exists, each in its
 * unit (reports/format, as the reports print them), nothing for a figure the answer lacks (a cut answer is not counted; a full
 * response has no gaps).
 */
import { formatCount, formatMs } from '../../reports/format.js';
import type { ViewAnswerFigures } from '../view-data.js';

/** `"212 tokens · 48.1 tokens/s · TPOT 19.6 ms · ITL p50 21.0 ms, p95 44.2 ms (38 gaps)"`; null when there is nothing. */
export function tokenLine(f: ViewAnswerFigures | undefined): string | null {
  if (f === undefined) return null;
  const parts: string[] = [];
  if (f.output_tokens !== null) parts.push(`${formatCount(f.output_tokens)} tokens`);
  if (f.output_tokens_per_s !== null) parts.push(`${f.output_tokens_per_s.toFixed(1)} tokens/s`);
  if (f.tpot_per_token_ms !== null) parts.push(`TPOT ${formatMs(f.tpot_per_token_ms)}`);
  if (f.itl_p50_ms !== null && f.itl_p95_ms !== null)
    parts.push(
      `ITL p50 ${formatMs(f.itl_p50_ms)}, p95 ${formatMs(f.itl_p95_ms)} (${f.itl_gaps} ${f.itl_gaps === 1 ? 'gap' : 'gaps'})`,
    );
  return parts.length === 0 ? null : parts.join(' · ');
}
