/**
 * @module app/eval/draft-expectations
 * `chatbench draft-expectations RUN`: reads a run's records (the bounded line reader of
 * app/store/read-records) and the dataset it ran (its manifest's, or the one named), and writes the
 * dataset draft and its candidates (dataset/draft-expectations) beside each other.
 */
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { scanDataset } from '../../dataset/index.js';
import { draftExpectations, type DraftQuestion, type DraftRow } from '../../dataset/draft-expectations.js';
import { createCandidateTally } from '../../dataset/expectation-candidates.js';
import { candidatesFileOf, DRAFT_FILE } from '../../dataset/expectation-decisions.js';
import { InputError } from '../../errors.js';
import { readManifestPart } from '../store/manifest.js';
import { readRecords } from '../store/read-records.js';
import { writeFileAtomic } from '../store/output-files.js';

export interface DraftRequest {
  readonly runDir: string;
  readonly cwd: string;
  /** The dataset to draft from; default: the one the run's manifest names. */
  readonly dataset?: string | undefined;
  /** The draft CSV; default RUN/expectations-draft.csv. The candidates go to the same name ending .candidates.json. */
  readonly out?: string | undefined;
  readonly top: number;
  readonly minSets: number;
}

export interface DraftResult {
  readonly csv: string;
  readonly candidatesFile: string;
  readonly dataset: string;
  readonly records: number;
  readonly tornLines: number;
  /** Questions with no expectations before, and with a proposal now. */
  readonly proposed: number;
  /** Questions that had expectations (kept). */
  readonly kept: number;
  /** Questions without expectations and with no candidate that qualified. */
  readonly empty: number;
  /** Question ids of the run that the dataset does not have (a different dataset, or edited since). */
  readonly unknownQuestions: number;
}

const DatasetOfManifestSchema = z.object({ dataset: z.object({ path: z.string().min(1) }) });

async function datasetOf(request: DraftRequest): Promise<string> {
  if (request.dataset !== undefined) return request.dataset;
  const part = await readManifestPart(resolve(request.cwd, request.runDir), DatasetOfManifestSchema);
  if (part === undefined)
    throw new InputError([`${join(request.runDir, 'manifest.json')}: names no dataset`], {
      hint: 'name the dataset the run asked: --dataset FILE',
    });
  return part.dataset.path;
}

export async function draftExpectationsOfRun(request: DraftRequest): Promise<DraftResult> {
  const info = await stat(resolve(request.cwd, request.runDir)).catch(() => undefined);
  if (info === undefined || !info.isDirectory())
    throw new InputError([`${request.runDir}: no such run directory`], {
      hint: 'name the directory eval wrote (reports/<time>-eval)',
    });
  const dataset = await datasetOf(request);
  const rows: DraftRow[] = [];
  const shape = await scanDataset(
    { path: dataset, cwd: request.cwd },
    {
      onRow: (row, _span, cells) =>
        rows.push({
          id: row.id,
          question: row.question,
          expected: row.expectations.expected_document_ids,
          cells: [...cells],
        }),
    },
  );
  const tally = createCandidateTally();
  const file = readRecords(request.runDir, { cwd: request.cwd });
  let records = 0;
  for await (const record of file) {
    tally.add(record);
    records += 1;
  }
  const byQuestion = new Map(tally.result().map((q) => [q.question_id, q]));
  const draft = draftExpectations(shape.columns, rows, byQuestion, request);
  const ids = new Set(rows.map((row) => row.id));
  const csv = request.out ?? join(request.runDir, DRAFT_FILE);
  const candidatesFile = candidatesFileOf(csv);
  await writeFileAtomic(resolve(request.cwd, csv), draft.csv);
  await writeFileAtomic(
    resolve(request.cwd, candidatesFile),
    `${JSON.stringify({ run: request.runDir, dataset, top: request.top, min_sets: request.minSets, questions: draft.questions }, null, 2)}\n`,
  );
  const count = (test: (q: DraftQuestion) => boolean) => draft.questions.filter(test).length;
  return {
    csv,
    candidatesFile,
    dataset,
    records,
    tornLines: file.tornLines,
    proposed: count((q) => q.proposed.length > 0),
    kept: count((q) => q.expected.length > 0),
    empty: count((q) => q.expected.length === 0 && q.proposed.length === 0),
    unknownQuestions: [...byQuestion.keys()].filter((id) => !ids.has(id)).length,
  };
}
