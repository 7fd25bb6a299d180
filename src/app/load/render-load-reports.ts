/**
 * @module app/load/render-load-reports
 * Writes the reports of a load run directory from its files alone: results.jsonl (every sent
 * request), manifest.json (its `load` spec) and generator.json (the generator's health, written when
 * the run ends). Without generator.json the run is incomplete (killed, or still running): the figures
 * are estimated from the records, over the time up to the last of them, and the reports say so first. `chatbench load` calls this when the run ends,
 * `chatbench capacity` once per step, and it can be called again later: same files in, same
 * reports out. Records stream past once and only the fields the figures need are kept.
 */
import { parseJsonText } from '../../util/parse-json.js';
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../store/output-files.js';
import { join } from 'node:path';
import { z } from 'zod';
import { ExitCode, InputError } from '../../errors.js';
import { loadRunVerdict, withInterruptExit, type Verdict } from '../../verdict/index.js';
import { writeVerdictFile } from '../store/verdict-file.js';
import { evaluateLoadGates } from '../../gates/load.js';
import type { Gate } from '../../figures/index.js';
import type { GateVerdict } from '../../gates/index.js';
import { computeLoadFigures, type LoadFigures } from '../../metrics/load.js';
import type { Slo } from '../../metrics/load-slo.js';
import { toLoadRecord, type LoadRecord } from '../../metrics/load-window.js';
import { createLoadGapPools, withLoadGaps } from '../../metrics/load-gaps.js';
import { evaluateSlos } from '../../metrics/load-slo.js';
import type { LoadSummary } from '../../records/load-summary.js';
import { renderLoadHtml } from '../../reports/load/load-html.js';
import { renderLoadMd } from '../../reports/load/load-md.js';
import { describeModel, type LoadReportInput } from '../../reports/load/load-tables.js';
import { renderTimelineCsv } from '../../reports/load/timeline-csv.js';
import { readRecordEntries } from '../store/read-records.js';
import { setEncodings } from '../store/manifest.js';
import { createTokenCounting } from '../../tokens/count-records.js';
import { openViewerFile } from '../shared/view-runs.js';
import { stopIfInterrupted } from '../shared/interrupted.js';
import { collectGarbageIfGrown, withTightHeap } from '../shared/heap.js';
import { LoadSpecSchema, type LoadSpec } from '../../plan/load-plan.js';
import { GeneratorHealthSchema, type GeneratorHealth } from '../../records/generator-health.js';

export interface LoadReportOptions {
  readonly version: string;
  /** `--slo`s: checked on the measured window, and they define goodput. */
  readonly slos?: readonly Slo[];
  /** `--gate`s: evaluated on the measured window; their results go into the reports. */
  readonly gates?: readonly Gate[];
  readonly title?: string;
  /** Where the viewer's bundle is (default dist/viewer); without it no viewer.html is written. */
  readonly viewerBundleDir?: string;
  /** Stops the rebuild while the records are read (render-reports RenderOptions.signal). */
  readonly signal?: AbortSignal;
  /** The exit code of the signal that interrupted the run (errors.ts interruptedExitCode); default 130. */
  readonly interruptedExit?: ExitCode;
}

export interface RenderedLoadReports {
  readonly summary: LoadSummary;
  readonly figures: LoadFigures;
  readonly gates: readonly GateVerdict[];
  /** The run's one decision (verdict/load), also written as verdict.json and embedded in viewer.html. */
  readonly verdict: Verdict;
  /** Paths written: summary.json, timeline.csv, report.md, report.html, verdict.json, viewer.html. */
  readonly files: readonly string[];
}

const ManifestLoadSchema = z.looseObject({ load: LoadSpecSchema });

/** A file's text, or undefined when it does not exist. */
async function readIfThere(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The run's load spec (manifest.json `load`) and generator health (generator.json, or null when absent). */
export async function readLoadRun(dir: string): Promise<{ spec: LoadSpec; generator: GeneratorHealth | null }> {
  const manifestName = join(dir, 'manifest.json');
  const manifest = await readIfThere(manifestName);
  if (manifest === undefined)
    throw new InputError([`${manifestName}: no such file`], {
      hint: 'a load run directory holds the manifest.json that chatbench load wrote',
    });
  const { load: spec } = parseJsonText(manifest, manifestName, ManifestLoadSchema, {
    hint: 'only a run of chatbench load has a load spec in its manifest',
  });
  const generatorName = join(dir, 'generator.json');
  const generator = await readIfThere(generatorName);
  return {
    spec,
    generator: generator === undefined ? null : parseJsonText(generator, generatorName, GeneratorHealthSchema),
  };
}

/** Computes the load summary of a run directory and writes its four reports. */
export async function renderLoadReports(dir: string, options: LoadReportOptions): Promise<RenderedLoadReports> {
  return withTightHeap(() => writeLoadReports(dir, options));
}

async function writeLoadReports(dir: string, options: LoadReportOptions): Promise<RenderedLoadReports> {
  // The run's garbage goes first when there is enough of it to matter (as before the eval's reports):
  // the reports' pass starts from what is live, under withTightHeap's growth.
  collectGarbageIfGrown();
  const { spec, generator } = await readLoadRun(dir);
  const records: LoadRecord[] = [];
  // Every run has its viewer.html too: the answers of a load run, bounded like any other's.
  const viewer = await openViewerFile(dir, { version: options.version, bundleDir: options.viewerBundleDir });
  // Tokens are counted here, after the run, from results.jsonl: never while requests are measured.
  const countTokens = createTokenCounting(await setEncodings(dir));
  for await (const entry of readRecordEntries(dir)) {
    stopIfInterrupted(options.signal, dir);
    const counted = await countTokens(entry.record);
    records.push(toLoadRecord(counted));
    // The viewer's figures per question and set include the token counts (the raw line stays as written).
    viewer.add({ ...entry, record: counted });
  }
  stopIfInterrupted(options.signal, dir);
  // generator.json is written when a run ends: without it the run was killed (or still runs).
  const figures = computeLoadFigures({
    records,
    spec,
    generator,
    slos: options.slos ?? [],
    incomplete: generator === null,
  });
  // ITL: the windows' bounds are known now; a second read pools every answer's gaps, kept in no array.
  const gaps = createLoadGapPools(figures.summary.windows);
  for await (const entry of readRecordEntries(dir)) {
    stopIfInterrupted(options.signal, dir);
    gaps.add(entry.record);
  }
  const pooled = withLoadGaps(figures.summary, gaps.stats());
  // The SLOs again, now that the ITL (answer_gap_ms) exists: one naming it was checked without it.
  const summary = { ...pooled, slos: evaluateSlos(options.slos ?? [], pooled) };
  const gates = evaluateLoadGates(options.gates ?? [], summary);
  const input: LoadReportInput = {
    summary,
    samples: figures.samples,
    meta: {
      title: options.title ?? `chatbench load: ${spec.set} (${describeModel(figures.summary.run)})`,
      generated_by: `chatbench ${options.version}`,
      run_dir: dir,
    },
    gates,
  };
  const outputs: Array<[string, string]> = [
    ['summary.json', `${JSON.stringify(summary, null, 2)}\n`],
    ['timeline.csv', renderTimelineCsv(summary.timeline)],
    ['report.md', renderLoadMd(input)],
    ['report.html', renderLoadHtml(input)],
  ];
  const files: string[] = [];
  for (const [name, text] of outputs) {
    const path = join(dir, name);
    await writeFileAtomic(path, text);
    files.push(path);
  }
  // verdict.json, as eval writes it: what the viewer opens with and the GitHub Action's report (ci/github) prints.
  const verdict = withInterruptExit(loadRunVerdict(summary, gates), options.interruptedExit ?? ExitCode.Interrupted);
  files.push(await writeVerdictFile(dir, verdict));
  const { file } = await viewer.finish(verdict);
  if (file !== null) files.push(file);
  return { summary, figures: { ...figures, summary }, gates, verdict, files };
}
