/**
 * @module reports/format
 * How the human-readable reports (markdown, HTML, JUnit messages) print a figure. One place, so
 * every report shows the same value the same way, and a figure that does not exist is always "–",
 * never 0 or an empty cell.
 */

/** What every human-readable report shows for a figure that does not exist (N/A). */
export const NA = '–';

/** A share in [0, 1] as a whole percentage ("83%"); one decimal under 10% so 0.4% is not "0%". */
export function formatPct(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return NA;
  const pct = value * 100;
  if (pct > 0 && pct < 10) return `${pct.toFixed(1)}%`;
  return `${Math.round(pct)}%`;
}

/** A score in [0, 1] with three decimals ("0.667"). */
export function formatScore(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return NA;
  return value.toFixed(3);
}

/** Milliseconds: one decimal under 100 ms, whole ms up to 10 s, then seconds with two decimals. */
export function formatMs(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return NA;
  if (value < 100) return `${value.toFixed(1)} ms`;
  if (value < 10_000) return `${Math.round(value)} ms`;
  return `${(value / 1000).toFixed(2)} s`;
}

/** An integer count with thousands separators, fixed to "en" so reports do not depend on the machine's locale. */
export function formatCount(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return NA;
  return Math.round(value).toLocaleString('en-US');
}

/** A mean with its 95% interval as percentages: "83% (70–91%)". */
export function formatPctWithCi(estimate: { mean: number; ci_low: number; ci_high: number } | null | undefined): string {
  if (!estimate) return NA;
  return `${formatPct(estimate.mean)} (${formatPct(estimate.ci_low).replace('%', '')}–${formatPct(estimate.ci_high)})`;
}

/** Cuts `text` to at most `max` characters on a code-point boundary, marking the cut with "…". */
export function trimText(text: string, max: number): string {
  // Code units bound code points from above: a text this short fits whatever it holds.
  if (text.length <= max) return text;
  if (max <= 1) return max === 1 && Array.from(text).length === 1 ? text : '…';
  // Walk code points only as far as the cut (answers can be long, and many are trimmed).
  const keep = Math.max(0, max - 1);
  let at = 0;
  let points = 0;
  for (; at < text.length && points < keep; points += 1) at += isHighSurrogate(text.charCodeAt(at)) && isLowSurrogate(text.charCodeAt(at + 1)) ? 2 : 1;
  let rest = 0;
  for (let i = at; i < text.length && rest <= 1; rest += 1) i += isHighSurrogate(text.charCodeAt(i)) && isLowSurrogate(text.charCodeAt(i + 1)) ? 2 : 1;
  // Nothing cut when what is left after max - 1 code points is one code point: the text has max.
  return rest <= 1 ? text : `${text.slice(0, at)}…`;
}

const isHighSurrogate = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLowSurrogate = (c: number) => c >= 0xdc00 && c <= 0xdfff;

const collator = new Intl.Collator('en', { numeric: true });
/** Natural order ("q2" before "q10"), the same on every machine: question ids and categories are sorted with it. */
export const naturalCompare = (a: string, b: string): number => collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);

// C0 controls other than tab/newline/CR, DEL, U+FFFE/U+FFFF and unpaired surrogates: illegal in XML 1.0, invisible junk elsewhere.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNPRINTABLE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** Replaces characters no report format can carry (see UNPRINTABLE) with U+FFFD, so the text stays visible and the file stays valid. */
export const replaceUnprintable = (text: string): string => text.replace(UNPRINTABLE, '\uFFFD');

/**
 * `text` as one inline code span of markdown. A line break would end the paragraph the span is in,
 * and what follows (a `<script>` line, a `# heading`) would be read as markdown: breaks are shown
 * as the two characters `\n` (`\r`), unprintable characters replaced, backticks shown as `'`.
 */
export function mdCode(text: string): string {
  const inner = replaceUnprintable(text).replace(/\r\n|\r|\n/g, (b) => (b === '\r' ? '\\r' : b === '\n' ? '\\n' : '\\r\\n')).replace(/`/g, "'");
  return `\`${inner}\``;
}
