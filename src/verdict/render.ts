/**
 * @module verdict/render
 * The verdict as each output prints it: the terminal's line (its word coloured), the Markdown
 * block that opens report.md, compare.md and the step summary, and the HTML block that opens
 * report.html and compare.html. They print the Verdict of verdict/verdict and decide nothing.
 */
import { splitHeadline, type Verdict } from './verdict.js';

/** The colours a terminal adds (reports/paint's Paint has them); PLAIN adds none. */
export interface VerdictPaint {
  good(text: string): string;
  bad(text: string): string;
  warn(text: string): string;
}

/** The verdict line, its word coloured by status. */
export function verdictLine(v: Verdict, paint: VerdictPaint): string {
  const { word, rest } = splitHeadline(v);
  const colour =
    v.status === 'passed' || v.status === 'no-gate' ? paint.good : v.status === 'interrupted' ? paint.warn : paint.bad;
  return `${colour(word)}${rest}`;
}

/**
 * One line per comparison, what to know first: a pair line (compare/pairwise pairLines,
 * `accurate vs fast (stream): pass rate +11.5 pts …; TTFT p50 ×1.76 significant · no clear winner`)
 * shortened to who compared with whom and its call (`accurate vs fast (stream): no clear winner`).
 * The call is the pair line's own text from its ` · no clear winner` or ` · best: `; a line without one is kept whole.
 */
export function comparisonOpenings(v: Pick<Verdict, 'comparisons'>): string[] {
  return v.comparisons.map((line) => {
    const head = line.indexOf(': ');
    const call = /· (no clear winner|best: )/.exec(line.slice(head + 2));
    return head === -1 || call === null ? line : `${line.slice(0, head)}: ${line.slice(head + 2 + call.index + 2)}`;
  });
}

const mdEscape = (text: string) => text.replace(/\r?\n|\r/g, ' ').replace(/\|/g, '\\|');

/** report.md / compare.md / the step summary: the headline in bold, the pairs, each failed check. */
export function verdictMarkdown(v: Verdict): string[] {
  const failed = v.reasons.filter((r) => !r.passed && r.counted);
  return [
    `**${mdEscape(v.headline)}** (exit ${v.exit_code})`,
    ...(v.comparisons.length > 0 ? ['', ...v.comparisons.map((line) => `- ${mdEscape(line)}`)] : []),
    ...(failed.length > 0
      ? [
          '',
          ...failed.map(
            (r) => `- ❌ ${r.kind === 'slo' ? 'SLO' : 'gate'} \`${mdEscape(r.text)}\`: ${mdEscape(r.detail)}`,
          ),
        ]
      : []),
  ];
}

/** report.html / compare.html: the same, as a block of class `verdict verdict-<status>`. */
export function verdictHtml(v: Verdict, esc: (text: string) => string): string {
  const failed = v.reasons.filter((r) => !r.passed && r.counted);
  const list = (items: readonly string[]) =>
    items.length === 0 ? '' : `<ul>${items.map((i) => `<li>${esc(i)}</li>`).join('')}</ul>`;
  return `<section class="verdict verdict-${v.status}" role="status"><p><strong>${esc(v.headline)}</strong> (exit ${v.exit_code})</p>${list(v.comparisons)}${list(failed.map((r) => `${r.kind === 'slo' ? 'SLO' : 'gate'} ${r.text}: ${r.detail}`))}</section>`;
}
