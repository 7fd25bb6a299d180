/**
 * @module app/eval/render-reports
 * Writes every report of a run directory from its results.jsonl alone. `chatbench eval` calls this
 * after the run and `chatbench report DIR` calls it again, so both give byte-identical files. The
 * records stream past once: the summarizer and the report builder keep numbers only (per-figure
 * samples, junit.xml's cases as columns, the worst few records), never a row object per request.
 */
import type { Verdict } from '../../verdict/index.js';
import { join } from 'node:path';
import { createRandom } from '../../compare/prng.js';
import { createRunCollector, type RunData } from '../../compare/run-data.js';
import { InputError } from '../../errors.js';
import { describePassRule, parsePassRule } from '../../metrics/pass-rule.js';
import { createSummarizer } from '../../metrics/summarize.js';
import { createQuestionIndex } from '../../metrics/question-index.js';
import { LabelSchema, LABELS_FILE, type Label } from '../../records/labels.js';
import { GeneratorLoopDelaySchema, type LoopDelay } from '../../records/generator-health.js';
import type { Summary } from '../../records/summary.js';
import { createReportInputBuilder, REPORT_RENDERERS, type ReportInput } from '../../reports/index.js';
import {
  DEFAULT_JUNIT_QUESTIONS,
  JUNIT_QUESTION_MODES,
  junitXmlChunks,
  type JunitOptions,
  type JunitQuestions,
} from '../../reports/junit-xml.js';
import { z } from 'zod';
import { plannedSetOrder, qualityOfRun, readManifestPart, setEncodings, targetService } from '../store/manifest.js';
import { createTokenCounting } from '../../tokens/count-records.js';
import { describeService } from '../../client/version-client.js';
import { createAtomicStream, writeFileAtomic } from '../store/output-files.js';
import { writeVerdictFile } from '../store/verdict-file.js';
import { readRecordEntries, readRecords } from '../store/read-records.js';
import { answerReader } from '../store/answer-at.js';
import { openViewerFile } from '../shared/view-runs.js';
import { readReviews } from '../store/reviews.js';
import { parseJsonText } from '../../util/parse-json.js';
import { readFileLines } from '../../util/file-lines.js';
import { readRunFileText } from '../store/run-file.js';
import { collectGarbageEvery, collectGarbageIfGrown, withTightHeap } from '../shared/heap.js';
import { stopIfInterrupted } from '../shared/interrupted.js';
import { readLabels } from '../../dataset/index.js';

export interface RenderedReports {
  readonly summary: Summary;
  readonly input: ReportInput;
  /** Paths of the files written, results.jsonl first. */
  readonly files: readonly string[];
  /** Reports not written, each with why (viewer.html without the viewer's bundle). */
  readonly skipped: readonly string[];
}

export interface RenderOptions {
  readonly version: string;
  readonly title?: string;
  /**
   * What junit.xml holds besides the run: the gates' cases and how questions appear (default: no
   * gates suite, questions as `skipped`); a decision's own junit options win.
   */
  readonly junit?: JunitOptions;
  /**
   * Decides the run's verdict once its records were read and summary.json written (eval and
   * `chatbench report`: the gates, the pairs of sets, the baseline). report.md, report.html,
   * junit.xml and viewer.html are then written once, opening with it, and verdict.json beside them.
   * When it throws, they are written without a verdict and the error is rethrown.
   */
  readonly decide?: (read: { summary: Summary; input: ReportInput; run: RunData }) => Promise<ReportDecision>;
  /** Where the viewer's bundle is (default dist/viewer); viewer.html is skipped, and says so, without it. */
  readonly viewerBundleDir?: string;
  /** The most records viewer.html embeds (default VIEWER_FILE_MAX_RECORDS); past it none is written. */
  readonly viewerMaxRecords?: number;
  /**
   * Stops the rebuild (`chatbench report` on an interrupt): while the records are read, the reports
   * are left as they were (no temporary file stays) and an InterruptedError is thrown; once they
   * are being written, they are all written.
   */
  readonly signal?: AbortSignal;
}

/** What a decision gives the reports: the verdict they open with, and junit.xml's gates and questions. */
export interface ReportDecision {
  readonly verdict: Verdict;
  readonly junit: JunitOptions;
}

export async function renderReports(dir: string, options: RenderOptions): Promise<RenderedReports> {
  return withTightHeap(() => writeReports(dir, options));
}

async function writeReports(dir: string, options: RenderOptions): Promise<RenderedReports> {
  // The run's garbage (eval) or none (report DIR): the reports' pass starts from what is live.
  // A small run's garbage is not worth a full collection (tens of ms each, a handful per eval).
  collectGarbageIfGrown();
  const { summary, input, runData, viewer } = await readRun(dir, options);
  const summaryPath = join(dir, 'summary.json');
  await writeFileAtomic(summaryPath, REPORT_RENDERERS['summary.json'].render(input));
  const files = [join(dir, 'results.jsonl'), join(dir, 'results.csv'), summaryPath];
  let decision: ReportDecision | undefined;
  let undecided: unknown;
  try {
    decision = await options.decide?.({ summary, input, run: runData });
  } catch (error) {
    undecided = error; // the reports are still written (without a verdict), then it is rethrown
  }
  const shown = decision === undefined ? input : { ...input, verdict: decision.verdict };
  for (const name of ['report.md', 'junit.xml', 'report.html'] as const) {
    const path = join(dir, name);
    files.push(path);
    collectGarbageIfGrown(); // the last report's text and its garbage, before the next
    // junit.xml has a testcase per request: written as it is rendered, never held whole.
    if (name === 'junit.xml')
      await writeJunit(
        dir,
        shown,
        decision?.junit ?? options.junit ?? { gates: null, questions: DEFAULT_JUNIT_QUESTIONS },
      );
    else await writeFileAtomic(path, REPORT_RENDERERS[name].render(shown));
  }
  if (decision !== undefined) {
    files.push(await writeVerdictFile(dir, decision.verdict));
  }
  collectGarbageIfGrown();
  const { file, skipped } = await viewer.finish(decision?.verdict, runData);
  if (file !== null) files.push(file);
  if (undecided !== undefined) throw undecided;
  return { summary, input, files, skipped: skipped === null ? [] : [skipped] };
}

/**
 * The reports' one pass over results.jsonl: the summary, the report builder's input, the run's
 * data for the verdict and viewer.html, and viewer.html's builder fed every record. Its own
 * function so that what only the pass needs (the summarizers' and the run collector's state per
 * question: some 6 KB a question at 7,000 distinct questions) is garbage once it returns, before
 * the reports are rendered, instead of live in the caller's frame until the last one is written.
 */
async function readRun(
  dir: string,
  options: RenderOptions,
): Promise<{ summary: Summary; input: ReportInput; runData: RunData; viewer: ViewerFile }> {
  // The plan's set order (manifest.json), so a resumed or merged run lists its sets as planned,
  // whatever order its requests finished in; the pass rule and the labels, for the answer quality.
  // reviews.jsonl (chatbench view) gives each group its human_pass_rate, and the judge's agreement
  // its humans beside labels.jsonl and the dataset's human_verdict.
  const reviews = await readReviews(dir);
  const setOrder = await plannedSetOrder(dir);
  const quality = await qualityOfRun(dir);
  // The question ids interned once for the pass: the summary's, the repeats', the run's data's and the reports' (junit.xml, the grid).
  const questionIds = createQuestionIndex();
  const summarizer = createSummarizer({
    questionIds,
    setOrder,
    verdicts: reviews.verdicts,
    loopDelay: await generatorLoopDelay(dir),
    quality: {
      passRule:
        quality === undefined
          ? 'unknown: the run directory has no manifest.json'
          : describePassRule(parsePassRule(quality?.pass ?? [], quality?.checks?.names ?? [])),
      labels: await readRunLabels(dir),
      reviews: reviews.verdicts,
      randomFor: (figure) => createRandom(`agreement|${figure}`),
    },
  });
  const viewer = capViewerFile(
    await openViewerFile(dir, {
      version: options.version,
      bundleDir: options.viewerBundleDir,
      setOrder,
      reviews,
      sharedRun: true,
    }),
    options.viewerMaxRecords ?? VIEWER_FILE_MAX_RECORDS,
  );
  const service = await targetService(dir);
  const builder = createReportInputBuilder({
    version: options.version,
    title: options.title ?? 'chatbench evaluation',
    ...(service ? { service: describeService(service) } : {}),
    // report.html's CDFs read the summary's sorted latencies: no third copy of every value.
    latencyOf: (column, figure) => summarizer.latency(column, figure),
    questionIds,
  });
  const countTokens = createTokenCounting(await setEncodings(dir));
  // What the verdict's comparisons and gates read (compare/run-data), collected in this pass and
  // shared with viewer.html: a second pass over results.jsonl held a second collection while the
  // viewer's was live (a run of 8,000 distinct questions: some 80 MB more at the reports' peak).
  // The run's summary and repeat figures are the reports' own (the same verdicts and set order):
  // one summarizer a pass, finished once.
  let summary: Summary | undefined;
  const summarize = (): Summary => (summary ??= summarizer.finish());
  const run = createRunCollector({
    answerAt: answerReader(join(dir, 'results.jsonl')),
    questionIds,
    verdicts: reviews.verdicts,
    setOrder,
    summarizer: {
      finish: summarize,
      repeats: () => summarizer.repeats(),
      latency: (group, f) => summarizer.latency(group, f),
    },
  });
  const csvPath = join(dir, 'results.csv');
  const csvOut = createAtomicStream(csvPath);
  const csv = REPORT_RENDERERS['results.csv'].createSink((chunk) => csvOut.write(chunk));
  let entries: ReturnType<typeof readRecordEntries> | undefined;
  try {
    const tick = collectGarbageEvery();
    for await (const entry of (entries = readRecordEntries(dir))) {
      stopIfInterrupted(options.signal, dir);
      tick();
      const record = await countTokens(entry.record);
      summarizer.add(record);
      builder.add(record);
      csv.write(record);
      run.add(record, entry.place.offset);
      // The viewer's figures per question and set include the token counts (the raw line stays as written).
      viewer.add({ ...entry, record });
    }
    stopIfInterrupted(options.signal, dir);
    await csv.close();
  } catch (error) {
    await csvOut.abort(); // a bad line or an interrupt: results.csv stays as it was, no .tmp left
    throw error;
  }
  await csvOut.commit();
  collectGarbageIfGrown(); // the pass's last stretch and the token encoding's loading
  return {
    summary: summarize(),
    input: builder.finish(summarize()),
    runData: run.finish(dir, entries?.tornLines ?? 0, await generatorLoopDelay(dir)),
    viewer,
  };
}

/**
 * The most records viewer.html embeds. It keeps every answer's figures and text until the end (the
 * text it embeds per answer depends on how many there are), so past this it would take memory
 * that grows with the run, for a file no browser opens well; `chatbench view DIR` serves any size.
 */
export const VIEWER_FILE_MAX_RECORDS = 20_000;

type ViewerFile = Awaited<ReturnType<typeof openViewerFile>>;

/** Passes the first `max` records on; past them drops the viewer file (and what it held) and says why. */
function capViewerFile(viewer: ViewerFile, max: number): ViewerFile {
  let current: ViewerFile | null = viewer;
  let count = 0;
  return {
    add(entry) {
      if (current === null) return;
      count += 1;
      if (count > max) current = null;
      else current.add(entry);
    },
    finish: (verdict, data) =>
      current?.finish(verdict, data) ??
      Promise.resolve({
        file: null,
        skipped: `viewer.html: the run has more than ${max.toLocaleString('en-US')} records, too many to embed in one file; open it with \`chatbench view DIR\``,
      }),
  };
}

/** Writes a run's junit.xml whole: its gates' suite and its questions' suites. */
async function writeJunit(dir: string, input: ReportInput, options: JunitOptions): Promise<void> {
  await writeFileAtomic(join(dir, 'junit.xml'), junitXmlChunks(input, options));
}

/** The run's verdict as a file, for the viewer and for scripts: verdict/verdict's object, as it is. */
export { VERDICT_FILE } from '../store/verdict-file.js';

/** How a run's manifest says its questions appear in junit.xml (`options.junit_questions`); the default for runs before it. */
export async function junitQuestionsOf(dir: string): Promise<JunitQuestions> {
  const part = await readManifestPart(
    dir,
    z.object({ options: z.object({ junit_questions: z.enum(JUNIT_QUESTION_MODES).optional() }).optional() }),
  );
  return part?.options?.junit_questions ?? DEFAULT_JUNIT_QUESTIONS;
}

/** The generator's event-loop delay from the run's generator.json (eval or load); null when it has none. */
export async function generatorLoopDelay(dir: string): Promise<LoopDelay | null> {
  const path = join(dir, 'generator.json');
  const text = await readRunFileText(path, path).catch((error: unknown) => {
    if (error instanceof InputError) throw error;
    return undefined;
  });
  if (text === undefined) return null;
  return parseJsonText(text, path, GeneratorLoopDelaySchema).loop_delay_ms ?? null;
}

/**
 * `chatbench report DIR --labels FILE`: checks the labels against the run's questions and sets and
 * keeps them as DIR/labels.jsonl (replacing any), so every later `report DIR` gives the same agreement.
 */
export async function saveRunLabels(dir: string, file: { path: string; cwd: string }): Promise<void> {
  const questionIds = new Set<string>();
  const sets: string[] = [];
  for await (const record of readRecords(dir)) {
    questionIds.add(record.question_id);
    if (!sets.includes(record.set)) sets.push(record.set);
  }
  const labels = await readLabels(file, { questionIds, sets });
  await writeFileAtomic(join(dir, LABELS_FILE), labels.map((l) => `${JSON.stringify(l)}\n`).join(''));
}

/** The run's labels.jsonl (human verdicts, `--labels`); [] when there is none. InputError for a bad line. */
export async function readRunLabels(dir: string): Promise<Label[]> {
  const file = join(dir, LABELS_FILE);
  const labels: Label[] = [];
  const problems: string[] = [];
  try {
    for await (const { text, number } of readFileLines(file, { name: file })) {
      if (text.trim() === '') continue;
      try {
        const parsed = LabelSchema.safeParse(JSON.parse(text));
        if (parsed.success) labels.push(parsed.data);
        else problems.push(`${file}:${number}: not a label (${parsed.error.issues[0]?.message ?? 'invalid'})`);
      } catch {
        problems.push(`${file}:${number}: not JSON`);
      }
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  if (problems.length > 0) throw new InputError(problems);
  return labels;
}
