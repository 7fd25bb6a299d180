/**
 * @module app/render-reports
 * Writes every report of a run directory from its results.jsonl alone. `chatbench eval` calls this
 * after the run and `chatbench report DIR` calls it again, so both give byte-identical files. The
 * records stream past once: the summarizer and the report builder keep numbers and slim rows only.
 */
import { createWriteStream } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { z } from 'zod';
import { createSummarizer } from '../metrics/summarize.js';
import type { Summary } from '../records/summary.js';
import { createReportInputBuilder, REPORT_RENDERERS, type ReportInput } from '../reports/index.js';
import { readRecords } from './read-records.js';
import { readReviews } from './reviews.js';

export interface RenderedReports {
  readonly summary: Summary;
  readonly input: ReportInput;
  /** Paths of the files written, results.jsonl first. */
  readonly files: readonly string[];
}

export interface RenderOptions {
  readonly version: string;
  readonly title?: string;
  /** Extra JUnit testcases (the gates of a comparison), inserted as their own suite. */
  readonly extraJunit?: string;
}

export async function renderReports(dir: string, options: RenderOptions): Promise<RenderedReports> {
  // The plan's set order (manifest.json), so a resumed or merged run lists its sets as planned,
  // whatever order its requests finished in.
  // reviews.jsonl (chatbench view) gives each group its human_pass_rate.
  const { verdicts } = await readReviews(dir);
  const summarizer = createSummarizer({ setOrder: await plannedSetOrder(dir), verdicts });
  const builder = createReportInputBuilder({ version: options.version, title: options.title ?? 'chatbench evaluation' });
  const csvPath = join(dir, 'results.csv');
  const csvOut = createWriteStream(csvPath);
  const csv = REPORT_RENDERERS['results.csv'].createSink((chunk) => void csvOut.write(chunk));
  for await (const record of readRecords(dir)) {
    summarizer.add(record);
    builder.add(record);
    csv.write(record);
  }
  await csv.close();
  csvOut.end();
  await finished(csvOut);
  const summary = summarizer.finish();
  const input = builder.finish(summary);
  const files = [join(dir, 'results.jsonl'), csvPath];
  for (const name of ['summary.json', 'report.md', 'junit.xml', 'report.html'] as const) {
    const path = join(dir, name);
    await writeFile(path, name === 'junit.xml' ? junitText(input, options.extraJunit) : REPORT_RENDERERS[name].render(input));
    files.push(path);
  }
  return { summary, input, files };
}

/** Writes junit.xml again with extra testcases (the gates, known only after the comparison). */
export async function rewriteJunit(dir: string, input: ReportInput, extraJunit: string): Promise<void> {
  await writeFile(join(dir, 'junit.xml'), junitText(input, extraJunit));
}

function junitText(input: ReportInput, extra: string | undefined): string {
  const text = REPORT_RENDERERS['junit.xml'].render(input);
  return extra ? text.replace('</testsuites>', `${extra}</testsuites>`) : text;
}

/** The sets in plan order, from the run's manifest.json; undefined when there is none (a bare results.jsonl). */
async function plannedSetOrder(dir: string): Promise<string[] | undefined> {
  const text = await readFile(join(dir, 'manifest.json'), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  const parsed = z.object({ sets: z.array(z.object({ name: z.string() })) }).safeParse(JSON.parse(text));
  return parsed.success ? parsed.data.sets.map((s) => s.name) : undefined;
}
