/**
 * @module app/eval/baseline
 * `chatbench baseline save RUN DEST`: a baseline small and stable enough to review in git —
 * records sorted by key, bulky timing detail dropped (answer_gaps_ms, and first_packet_ms but the
 * milestones the figure catalogue reads, so milestone figures compare with a baseline), answers
 * trimmed; summary.json computed from the full records; the run's reviews.jsonl when it has one; a
 * README saying where it came from.
 * Saving the same run twice gives the same bytes (no save-time timestamp).
 */
import { mkdir } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { createSummarizer } from '../../metrics/summarize.js';
import type { AnswerFigures, RequestRecord } from '../../records/record.js';
import { naturalCompare, trimText } from '../../reports/format.js';
import { MILESTONE_PACKET_TYPES } from '../../figures/catalogue.js';
import { readRecords } from '../store/read-records.js';
import { setEncodings } from '../store/manifest.js';
import { createTokenCounting } from '../../tokens/count-records.js';
import { readReviews } from '../store/reviews.js';
import { writeFileAtomic } from '../store/output-files.js';

/** Answers in a baseline are cut to this many characters. */
export const BASELINE_ANSWER_CHARS = 2000;

/** A figure set without the bulky fields; the schema keeps them, so they are emptied, not removed. */
function slim<T extends AnswerFigures>(figures: T): T {
  return {
    ...figures,
    answer_gaps_ms: [],
    first_packet_ms: Object.fromEntries(
      MILESTONE_PACKET_TYPES.flatMap((type) => {
        const at = figures.first_packet_ms[type];
        return at === undefined ? [] : [[type, at]];
      }),
    ),
    answer: figures.answer === null ? null : trimText(figures.answer, BASELINE_ANSWER_CHARS),
  };
}

/** The record as a baseline keeps it. */
export function slimRecord(record: RequestRecord): RequestRecord {
  return { ...slim(record), models: record.models === null ? null : record.models.map(slim) };
}

export interface SavedBaseline {
  records: number;
  tornLines: number;
  files: string[];
}

/** Reads RUN (a run directory or results.jsonl), writes DEST/results.jsonl, summary.json and README.md. */
export async function saveBaseline(options: { runDir: string; destDir: string; cwd?: string }): Promise<SavedBaseline> {
  const cwd = options.cwd;
  const source = readRecords(options.runDir, cwd === undefined ? {} : { cwd });
  // The run's reviews go with it, so human_pass_rate can be compared with the baseline's.
  const { reviews, verdicts } = await readReviews(options.runDir, cwd === undefined ? {} : { cwd });
  const summarizer = createSummarizer({ verdicts });
  const kept: RequestRecord[] = [];
  // Counted before the answers are trimmed: the baseline keeps the whole answers' token figures.
  const full = cwd === undefined || isAbsolute(options.runDir) ? options.runDir : resolve(cwd, options.runDir);
  const countTokens = createTokenCounting(await setEncodings(full.endsWith('.jsonl') ? dirname(full) : full));
  for await (const read of source) {
    const record = await countTokens(read);
    summarizer.add(record);
    kept.push(slimRecord(record));
  }
  kept.sort((a, b) => naturalCompare(a.key, b.key));
  const summary = summarizer.finish();
  const dest = isAbsolute(options.destDir) || cwd === undefined ? options.destDir : resolve(cwd, options.destDir);
  await mkdir(dest, { recursive: true });
  const modes = [...new Set(summary.groups.map((g) => g.mode))].join(', ');
  const readme = [
    '# chatbench baseline',
    '',
    `Saved by \`chatbench baseline save\` from \`${source.file}\`: the run started ${summary.run.started_at ?? 'at an unknown time'},`,
    `${summary.run.requests} requests, ${summary.run.questions} questions, sets ${summary.run.sets.join(', ') || 'none'} (${modes || 'no mode'}).`,
    '',
    'Answers are trimmed and per-part timings dropped; scores, outcomes and latencies are kept.',
    'Compare a run with it: `chatbench compare <this directory> <run directory> --gate ...`.',
    '',
  ].join('\n');
  const files: Record<string, string> = {
    'results.jsonl': kept.map((r) => `${JSON.stringify(r)}\n`).join(''),
    'summary.json': `${JSON.stringify(summary, null, 2)}\n`,
    'README.md': readme,
  };
  if (reviews.length > 0) files['reviews.jsonl'] = reviews.map((r) => `${JSON.stringify(r)}\n`).join('');
  for (const [name, text] of Object.entries(files)) await writeFileAtomic(join(dest, name), text);
  return {
    records: kept.length,
    tornLines: source.tornLines,
    files: Object.keys(files).map((name) => join(options.destDir, name)),
  };
}
