/**
 * @module app/shared/view-runs
 * The viewer's data from run directories: `chatbench view` (a ViewSource the server serves, reading
 * one question's records back from results.jsonl by their byte place, appending reviews) and
 * viewer.html (the same data with the records embedded, bounded in size). Reads the runs as they
 * are, with the readers compare and the reports use.
 */
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { readFile, stat } from 'node:fs/promises';
import { VerdictSchema, type Verdict } from '../../verdict/index.js';
import { compareRuns, parseSetMap, type RunData } from '../../compare/index.js';
import { InputError } from '../../errors.js';
import type { RequestRecord } from '../../records/record.js';
import { REVIEW_VERSION, type Review } from '../../records/review.js';
import { naturalCompare } from '../../reports/format.js';
import {
  buildViewData,
  createViewCollector,
  type CollectedRun,
  type ViewCollector,
  type ViewRunInput,
} from '../../viewer/model.js';
import { readViewerBundle, type ViewerBundle } from '../../viewer/assets.js';
import { viewerFileChunks } from '../../viewer/page.js';
import type { ViewSource } from '../../viewer/server.js';
import type { ReviewRequest, ViewData, ViewDetail, ViewRecord } from '../../viewer/view-data.js';
import { readRecordAt, readRecordEntries, type RecordEntry, type RecordPlace } from '../store/read-records.js';
import { plannedSetOrder, setEncodings } from '../store/manifest.js';
import { createTokenCounting } from '../../tokens/count-records.js';
import { recordAnswerFigures } from '../../viewer/answer-figures.js';
import { appendReview, readReviews, reviewAppendsSettled, type RunReviews } from '../store/reviews.js';
import { writeFileAtomic } from '../store/output-files.js';
import { completedDataset, readRunExpectations, saveDecision, type RunExpectations } from './view-expectations.js';

interface RecordRef {
  readonly place: RecordPlace;
  readonly record: Pick<RequestRecord, 'key' | 'question_id' | 'set' | 'mode' | 'repeat'> & {
    readonly models: readonly number[] | null;
  };
}

/** One run read for the viewer. */
interface LoadedRun {
  readonly name: string;
  readonly source: string;
  /** The run directory (reviews.jsonl goes there). */
  readonly dir: string;
  readonly resultsPath: string;
  readonly collected: CollectedRun;
  readonly reviews: RunReviews;
  readonly byQuestion: ReadonlyMap<string, readonly RecordRef[]>;
  readonly byKey: ReadonlyMap<string, RecordRef>;
  /** Per question, its id, text and every answer, lower-cased: what search looks in. */
  readonly searchText: ReadonlyMap<string, string>;
  readonly verdict: Verdict | null;
  /** The run's token counting (tokens/count-records), for a question's records read back. */
  readonly countTokens: (record: RequestRecord) => Promise<RequestRecord>;
}

/** The run's verdict.json (app/eval/eval-verdict writes it); null when absent or not a verdict. */
export async function readVerdict(dir: string): Promise<Verdict | null> {
  const text = await readFile(join(dir, 'verdict.json'), 'utf8').catch(() => undefined);
  if (text === undefined) return null;
  try {
    const parsed = VerdictSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

const refOf = (entry: RecordEntry): RecordRef => ({
  place: entry.place,
  record: {
    key: entry.record.key,
    question_id: entry.record.question_id,
    set: entry.record.set,
    mode: entry.record.mode,
    repeat: entry.record.repeat,
    models: entry.record.models === null ? null : entry.record.models.map((m) => m.model_index),
  },
});

/** The directory a path names: itself, or the one holding a results.jsonl named directly. */
async function runDirOf(full: string): Promise<string> {
  const info = await stat(full).catch(() => undefined);
  return info !== undefined && !info.isDirectory() ? dirname(full) : full;
}

async function loadRun(source: string, cwd: string, name: string): Promise<LoadedRun> {
  const full = isAbsolute(source) ? source : resolve(cwd, source);
  const dir = await runDirOf(full);
  const reviews = await readReviews(source, { cwd });
  const collector: ViewCollector = createViewCollector({
    verdicts: reviews.verdicts,
    setOrder: await plannedSetOrder(dir),
  });
  // Token figures (output tokens, tokens/s, TPOT per token) as the reports count them: results.jsonl holds none.
  const countTokens = createTokenCounting(await setEncodings(dir));
  const entries = readRecordEntries(source, { cwd });
  const byQuestion = new Map<string, RecordRef[]>();
  const byKey = new Map<string, RecordRef>();
  const searchText = new Map<string, string>();
  for await (const entry of entries) {
    collector.add(await countTokens(entry.record));
    const r = entry.record;
    const answers = [r.answer, ...(r.models ?? []).map((m) => m.answer)]
      .filter((a): a is string => a !== null)
      .join('\n');
    searchText.set(
      r.question_id,
      `${searchText.get(r.question_id) ?? `${r.question_id}\n${r.question}`}\n${answers}`.toLowerCase(),
    );
    const ref = refOf(entry);
    const list = byQuestion.get(ref.record.question_id);
    if (list) list.push(ref);
    else byQuestion.set(ref.record.question_id, [ref]);
    byKey.set(ref.record.key, ref);
  }
  return {
    name,
    source,
    dir,
    resultsPath: entries.fullPath,
    collected: collector.finish(source, entries.tornLines),
    reviews,
    byQuestion,
    byKey,
    searchText,
    verdict: await readVerdict(dir),
    countTokens,
  };
}

/** Short, distinct run names: the directories' last segments, numbered when two are alike. */
function runNames(sources: readonly string[]): string[] {
  const names = sources.map((s) => basename(s.replace(/[\\/]+$/, '').replace(/[\\/]results\.jsonl$/, '')) || s);
  return names.map((n, i) => (names.indexOf(n) !== i || names.lastIndexOf(n) !== i ? `${n} #${i + 1}` : n));
}

export interface ViewRunsOptions {
  readonly runs: readonly string[];
  readonly baseline?: string | undefined;
  /** `--map old=new` for the baseline comparison. */
  readonly map?: readonly string[];
  readonly cwd: string;
  /** Who saves reviews. */
  readonly reviewer: string;
  readonly version: string;
  /** The clock of a review's time (tests pass a fixed one). */
  readonly now?: () => Date;
  readonly seed?: number;
  readonly resamples?: number;
}

/**
 * Reads every run (and the baseline) and gives the server its ViewSource. Bad input (a missing
 * run, a bad results.jsonl or reviews.jsonl, a bad --map) throws before anything is served.
 * After a review is saved, its run is read again (with the new verdict) before data is next given.
 */
export async function openViewRuns(options: ViewRunsOptions): Promise<ViewSource> {
  if (options.runs.length === 0) throw new InputError(['name at least one run directory']);
  const setMap = parseSetMap(options.map ?? []);
  const names = runNames([...options.runs, ...(options.baseline === undefined ? [] : [options.baseline])]);
  const runs: LoadedRun[] = await Promise.all(options.runs.map((source, i) => loadRun(source, options.cwd, names[i]!)));
  const baseline =
    options.baseline === undefined ? undefined : await loadRun(options.baseline, options.cwd, names[names.length - 1]!);
  const now = options.now ?? (() => new Date());
  // Each run's candidates and decisions (draft-expectations), read once; decisions are added as they are saved.
  const expectations: (RunExpectations | null)[] = await Promise.all(runs.map((run) => readRunExpectations(run.dir)));
  const expectationsOf = (index: number): RunExpectations => {
    const run = expectations[index];
    if (run === undefined || run === null)
      throw new InputError([
        `${runs[index]?.name ?? `run ${index}`}: no candidates (run chatbench draft-expectations on it first)`,
      ]);
    return run;
  };

  // A comparison is computed once per reading of a run (a review reads its run again).
  const comparisons = new WeakMap<LoadedRun, ViewRunInput['comparison']>();
  const comparisonOf = (run: LoadedRun): ViewRunInput['comparison'] => {
    if (baseline === undefined) return null;
    if (!comparisons.has(run))
      comparisons.set(
        run,
        compareRuns(baseline.collected.data, run.collected.data, {
          setMap,
          seed: options.seed ?? 1,
          resamples: options.resamples,
        }),
      );
    return comparisons.get(run) ?? null;
  };
  const inputOf = (run: LoadedRun): ViewRunInput => ({
    name: run.name,
    source: run.source,
    collected: run.collected,
    reviews: run.reviews.reviews.length,
    comparison: comparisonOf(run),
    verdict: run.verdict,
  });
  const build = (): ViewData =>
    buildViewData({
      runs: runs.map(inputOf),
      baseline:
        baseline === undefined
          ? null
          : {
              name: baseline.name,
              source: baseline.source,
              collected: baseline.collected,
              reviews: baseline.reviews.reviews.length,
              comparison: null,
            },
      mode: 'server',
      reviewer: options.reviewer,
      generatedBy: `chatbench ${options.version}`,
      // The server searches whole answers (search below): the rows carry no answer text.
      answerChars: 0,
      details: { source: 'server' },
    });
  let data: Promise<ViewData> = Promise.resolve(build());
  /** Per run, a reload queued and not yet started: a review appended before it starts is in what it reads. */
  const queued = new Map<number, Promise<ViewData>>();
  /**
   * The run is read again with its new verdicts; data() waits for it. Reviews posted at once share
   * one queued reload, started once their appends are done, instead of a reload each (60 at once
   * were 60 reads of the run, one after another).
   */
  const reload = (index: number, run: (typeof runs)[number]): Promise<ViewData> => {
    const waiting = queued.get(index);
    if (waiting !== undefined) return waiting;
    const next = data.then(async () => {
      await reviewAppendsSettled(run.dir); // reviews posted together are appended first, then read once
      queued.delete(index); // started: a review appended from now on needs the next reload
      runs[index] = await loadRun(run.source, options.cwd, run.name);
      return build();
    });
    queued.set(index, next);
    data = next;
    return next;
  };

  return {
    data: () => data,
    async question(id) {
      const read = async (run: LoadedRun, index: number): Promise<ViewRecord[]> =>
        Promise.all(
          (run.byQuestion.get(id) ?? []).map(async (ref) => {
            const { json, record } = await readRecordAt(run.resultsPath, ref.place);
            return { run: index, record: json, figures: recordAnswerFigures(await run.countTokens(record)) };
          }),
        );
      const records = [
        ...(await Promise.all(runs.map(read))).flat(),
        ...(baseline === undefined ? [] : await read(baseline, -1)),
      ];
      if (records.length === 0) return undefined;
      const reviews = runs.flatMap((run, index) =>
        run.reviews.reviews.filter((r) => r.question_id === id).map((review) => ({ run: index, review })),
      );
      return { question_id: id, records, reviews } satisfies ViewDetail;
    },
    async search(query) {
      const words = query.toLowerCase().split(/\s+/).filter(Boolean);
      const ids = new Set<string>();
      for (const run of [...runs, ...(baseline === undefined ? [] : [baseline])]) {
        for (const [id, text] of run.searchText) if (words.every((w) => text.includes(w))) ids.add(id);
      }
      return [...ids];
    },
    async saveReview(request: ReviewRequest) {
      const run = runs[request.run];
      if (run === undefined) throw new InputError([`review: no run ${request.run}`]);
      const ref = run.byKey.get(request.key);
      if (ref === undefined) throw new InputError([`review: ${run.name} has no record ${request.key}`]);
      const models = ref.record.models;
      if (
        models === null
          ? request.model_index !== null
          : request.model_index === null || !models.includes(request.model_index)
      ) {
        throw new InputError([
          `review: ${request.key} has ${models === null ? 'one answer (model_index must be null)' : `the answers of models ${models.join(', ')}`}`,
        ]);
      }
      const review: Review = {
        review_version: REVIEW_VERSION,
        key: ref.record.key,
        model_index: request.model_index,
        question_id: ref.record.question_id,
        set: ref.record.set,
        mode: ref.record.mode,
        repeat: ref.record.repeat,
        verdict: request.verdict,
        note: request.note.trim(),
        reviewer: options.reviewer,
        at: now().toISOString(),
      };
      await appendReview(run.dir, review);
      await reload(request.run, run);
      return review;
    },
    async expectations(id) {
      return expectations.flatMap((run, index) => {
        const question = run?.questions.get(id);
        if (run === null || run === undefined || question === undefined) return [];
        return [{ run: index, question, decisions: Object.fromEntries(run.decisions.get(id) ?? []) }];
      });
    },
    saveDecision: async (request) => saveDecision(expectationsOf(request.run), request, options.reviewer, now()),
    completedDataset: async (index) => (await completedDataset(expectationsOf(index))).csv,
  };
}

/** How much of the records viewer.html embeds (docs/commands/view.md). */
export const VIEWER_FILE_LIMITS = {
  /** Full records of whole questions, in question order, up to this many bytes of JSON. */
  detailBytes: 8_000_000,
  /** Answer text for search and preview: this many bytes over all answers... */
  answerBytes: 4_000_000,
  /** ...but never under 200 or over 1,000 characters an answer. */
  minAnswerChars: 200,
  maxAnswerChars: 1000,
} as const;

/** The bulky fields viewer.html leaves out of an embedded record (the waterfall needs none of them). */
function slimRaw(text: string): Record<string, unknown> {
  const raw = JSON.parse(text) as Record<string, unknown>;
  delete raw.answer_gaps_ms;
  if (Array.isArray(raw.models)) for (const m of raw.models as Record<string, unknown>[]) delete m.answer_gaps_ms;
  return raw;
}

/** Builds viewer.html's data while renderReports streams the records past once. */
export interface ViewerFileBuilder {
  add(entry: RecordEntry): void;
  /**
   * `verdict`: the run's, when decided after the records were read (else the one given at the start);
   * `run`: the run's data, collected by the caller from the same records (with `sharedRun`).
   */
  finish(verdict?: Verdict | null, run?: RunData): { data: ViewData; details: Record<string, ViewDetail> };
}

export function createViewerFileBuilder(options: {
  source: string;
  name: string;
  version: string;
  reviews: RunReviews;
  setOrder?: readonly string[] | undefined;
  limits?: typeof VIEWER_FILE_LIMITS;
  verdict?: Verdict | null;
  /** The caller collects the run's data (compare/run-data) and gives it to finish(). */
  sharedRun?: boolean;
}): ViewerFileBuilder {
  const limits = options.limits ?? VIEWER_FILE_LIMITS;
  const collector = createViewCollector({
    verdicts: options.reviews.verdicts,
    setOrder: options.setOrder,
    sharedRun: options.sharedRun === true,
  });
  // Records are kept (slimmed) while twice the budget allows; past it, questions seen later are incomplete.
  // Each is kept as its JSON text, parsed again only if embedded: 16 MB of records as objects held
  // some 26 MB of heap until the end of the reports, as text 16 MB.
  const kept = new Map<string, { bytes: number; records: { record: string; figures: string }[] }>();
  const incomplete = new Set<string>();
  let keptBytes = 0;
  let answers = 0;
  return {
    add(entry) {
      collector.add(entry.record);
      answers += 1 + (entry.record.models?.length ?? 0);
      const id = entry.record.question_id;
      if (keptBytes > limits.detailBytes * 2 || incomplete.has(id)) {
        incomplete.add(id);
        kept.delete(id);
        return;
      }
      const record = JSON.stringify(slimRaw(entry.text));
      // Figures from the counted record: the slimmed line has no token counts and no gaps.
      const figures = JSON.stringify(recordAnswerFigures(entry.record));
      const bytes = record.length + figures.length;
      const question = kept.get(id) ?? { bytes: 0, records: [] };
      question.bytes += bytes;
      question.records.push({ record, figures });
      kept.set(id, question);
      keptBytes += bytes;
    },
    finish(verdict, run) {
      const collected = collector.finish(options.source, 0, run);
      const details: Record<string, ViewDetail> = {};
      let bytes = 0;
      let complete = incomplete.size === 0;
      for (const id of [...kept.keys()].sort(naturalCompare)) {
        const q = kept.get(id)!;
        if (bytes + q.bytes > limits.detailBytes) {
          complete = false;
          break;
        }
        bytes += q.bytes;
        details[id] = {
          question_id: id,
          records: q.records.map((r): ViewRecord => ({
            run: 0,
            record: JSON.parse(r.record),
            figures: JSON.parse(r.figures),
          })),
          reviews: options.reviews.reviews.filter((r) => r.question_id === id).map((review) => ({ run: 0, review })),
        };
      }
      if (Object.keys(details).length < collected.questions.size) complete = false;
      const answerChars = Math.max(
        limits.minAnswerChars,
        Math.min(limits.maxAnswerChars, Math.floor(limits.answerBytes / Math.max(1, answers))),
      );
      const data = buildViewData({
        runs: [
          {
            name: options.name,
            source: options.source,
            collected,
            reviews: options.reviews.reviews.length,
            comparison: null,
            verdict: verdict ?? options.verdict ?? null,
          },
        ],
        mode: 'file',
        generatedBy: `chatbench ${options.version}`,
        answerChars,
        details: { source: 'embedded', complete },
      });
      return { data, details };
    },
  };
}

/** viewer.html of a run directory, fed the records while a report streams them past. */
export interface ViewerFileWriter {
  add(entry: RecordEntry): void;
  /**
   * Writes viewer.html (embedding `verdict` when given, else the run's verdict.json); without the
   * viewer's bundle, writes nothing and says why. `run`: as ViewerFileBuilder's.
   */
  finish(verdict?: Verdict | null, run?: RunData): Promise<{ file: string | null; skipped: string | null }>;
}

/**
 * Starts viewer.html of `dir` (its reviews read now, its bundle from `bundleDir`, default
 * dist/viewer). Without a bundle the records are not even kept: finish() gives the reason.
 */
export async function openViewerFile(
  dir: string,
  options: {
    version: string;
    bundleDir?: string | undefined;
    setOrder?: readonly string[] | undefined;
    reviews?: RunReviews;
    sharedRun?: boolean;
  },
): Promise<ViewerFileWriter> {
  const bundle: ViewerBundle | Error = await readViewerBundle(options.bundleDir).catch((error: Error) => error);
  if (bundle instanceof Error)
    return { add: () => undefined, finish: async () => ({ file: null, skipped: `viewer.html: ${bundle.message}` }) };
  const name = basename(resolve(dir));
  const builder = createViewerFileBuilder({
    source: name,
    name,
    version: options.version,
    reviews: options.reviews ?? (await readReviews(dir)),
    setOrder: options.setOrder,
    verdict: await readVerdict(dir),
    sharedRun: options.sharedRun === true,
  });
  return {
    add: (entry) => builder.add(entry),
    async finish(verdict, run) {
      const file = join(dir, 'viewer.html');
      await writeFileAtomic(
        file,
        viewerFileChunks({ title: `chatbench viewer: ${name}`, bundle, ...builder.finish(verdict, run) }),
      );
      return { file, skipped: null };
    },
  };
}
