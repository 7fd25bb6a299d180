/**
 * @module ci/github/comment
 * The step summary and the pull-request comment of a run, from what the run wrote: its verdict
 * (verdict.json, printed by the verdict layer's `verdictMarkdown`, never recomputed) first, then
 * its table: the comparison chatbench wrote for the step summary when there is one (eval
 * --baseline, compare), else report.md's tables (an eval's Comparison; a load run's Windows and
 * Latency), else compare.md's sections. Pure.
 */
import { verdictMarkdown, type Verdict } from '../../verdict/index.js';

/** The hidden marker that finds chatbench's comment among a pull request's comments. */
export const COMMENT_MARKER = '<!-- chatbench-comment -->';

/** GitHub refuses an issue comment over 65,536 characters. */
export const COMMENT_LIMIT = 65_536;

/** The section of report.md that starts with `## title` (or `## title (…)`), up to the next `## ` heading. */
export function markdownSection(markdown: string, title: string): string | null {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.trim() === `## ${title}` || line.startsWith(`## ${title} (`));
  if (start === -1) return null;
  const end = lines.findIndex((line, i) => i > start && line.startsWith('## '));
  return lines
    .slice(start, end === -1 ? undefined : end)
    .join('\n')
    .trimEnd();
}

export interface RunTexts {
  readonly verdict: Verdict;
  /** What chatbench itself wrote for the step summary (eval --baseline, compare), if anything. */
  readonly ownSummary: string | null;
  readonly reportMd: string | null;
  /** compare.md (`chatbench compare`'s run directory has no report.md). */
  readonly compareMd?: string | null;
  /** Where the whole reports are (the workflow run's page), for the note of a cut comment. */
  readonly runUrl: string | null;
}

/** The step summary: chatbench's own when it wrote one (its verdict leads it), else the verdict and report.md's table. */
export function stepSummary(texts: RunTexts): string {
  if (texts.ownSummary !== null && texts.ownSummary.trim() !== '')
    return texts.ownSummary.endsWith('\n') ? texts.ownSummary : `${texts.ownSummary}\n`;
  const tables = runTables(texts);
  return `${['## chatbench', '', ...verdictMarkdown(texts.verdict), ...tables.flatMap((t) => ['', t])].join('\n')}\n`;
}

/** report.md's sections that hold a run's table: an eval's Comparison; a load run's Windows and Latency. */
const REPORT_TABLES = ['Comparison', 'Windows', 'Latency'] as const;

/** The tables under the verdict: report.md's, else compare.md from its first section (its title and verdict are above it). */
function runTables(texts: RunTexts): string[] {
  if (texts.reportMd !== null && texts.reportMd !== undefined) {
    const md = texts.reportMd;
    return REPORT_TABLES.map((title) => markdownSection(md, title)).filter((t): t is string => t !== null);
  }
  const md = texts.compareMd ?? null;
  const start = md === null ? -1 : md.search(/^## /m);
  return md === null || start === -1 ? [] : [md.slice(start).trimEnd()];
}

/**
 * The comment: the marker, then the summary, cut at a line to fit GitHub's limit with a note
 * saying so (the whole is on the run's page). The verdict comes first, so a cut never loses it.
 */
export function commentBody(texts: RunTexts, limit = COMMENT_LIMIT): string {
  const body = `${COMMENT_MARKER}\n${stepSummary(texts)}`;
  if (body.length <= limit) return body;
  const note = `\n\n_… cut to fit GitHub's comment limit of ${limit.toLocaleString('en-US')} characters: the whole summary is on ${texts.runUrl ?? "the workflow run's page"}._\n`;
  const room = limit - note.length;
  const cut = body.slice(0, room);
  const atLine = cut.lastIndexOf('\n');
  return `${atLine > COMMENT_MARKER.length ? cut.slice(0, atLine) : cut}${note}`;
}
