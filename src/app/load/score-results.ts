/**
 * @module app/load/score-results
 * A load run's records scored after its last byte. While requests run, each record is written as
 * measured (load-record.ts measuredRecord: its scores null); once the last byte is in, this pass
 * reads results.jsonl back, scores each record from its question's expectations, and puts the
 * scored file in place of the measured one (a temporary file renamed over it: a pass cut short
 * leaves the measured records as they were). The records keep their order and every other field.
 *
 * Why after: scoring a record and writing its scores (60 figures, a third of its line) was 6–10%
 * of the generator's CPU per request while it sends (chatbench ÷ a build that scores nothing,
 * paired rounds: 1.06–1.10× in four of bench:load's five scenarios; docs/benchmarks-log.md,
 * "Session 55"). Done here, it costs the run's end that time (and reading the line back: 115 µs a
 * record in all, test/bench/score-pass.bench.ts) instead of the measured window, where it competed
 * with the timestamps of the requests in flight. A run killed before this pass (SIGKILL, a crash)
 * keeps its records unscored: `scores` null, as a request without expectations has them.
 *
 * Each record's expectations come from the plan, which draws arrival i's question the same way
 * every time (plan/load-plan.ts): `repeat` is the arrival's index, and within a conversation the
 * turn is the one with the record's question id.
 */
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createLoadPlan, type LoadPlan, type LoadSpec } from '../../plan/load-plan.js';
import type { PlannedRequest } from '../../plan/planned-request.js';
import type { RequestRecord } from '../../records/record.js';
import { readFileLines } from '../../util/file-lines.js';
import { parseRecordLine } from '../store/read-records.js';
import { openResultsFile } from '../store/results-file.js';
import { finishedRecord, planInput } from './load-record.js';
import type { PreparedLoad } from './prepare-load.js';

/** Lines scored between two waits for the file's stream to take what it was given. */
const LINES_PER_DRAIN = 512;

export interface ScoreResultsOptions {
  readonly prepared: PreparedLoad;
  readonly spec: LoadSpec;
  /** Every secret of the run (client/redact.ts runSecrets): the scored lines are screened as the measured ones were. */
  readonly secrets: readonly string[];
}

/**
 * Scores every record of `outDir`'s results.jsonl in place. An open-urls run has nothing to score
 * (its records' scores stay null) and its file is left alone. Resolves with the records scored;
 * a line that is not a record leaves the file as it was (the reports then name that line).
 */
export async function scoreResults(outDir: string, options: ScoreResultsOptions): Promise<number> {
  const { prepared, spec } = options;
  if (prepared.source.operation !== 'chat') return 0;
  const plan = createLoadPlan(planInput(prepared, spec));
  const path = join(outDir, 'results.jsonl');
  const temp = join(outDir, '.results.jsonl.scoring.tmp');
  const sink = openResultsFile(temp, {
    hint: 'results.jsonl keeps every record as measured (scores null); `chatbench report` reads it as it is',
    secrets: options.secrets,
  });
  let scored = 0;
  let complete = false;
  try {
    sink.cork();
    for await (const line of readFileLines(path, { name: path })) {
      if (line.text.trim() === '') continue;
      // Read without zod's walk where the line is as this version writes it (read-records parseRecordLine).
      const parsed = parseRecordLine(line.text);
      if (!('record' in parsed)) return 0;
      sink.write(finishedRecord(parsed.record, plannedOf(plan, spec, parsed.record)));
      if (++scored % LINES_PER_DRAIN === 0) {
        sink.uncork();
        await sink.drain();
        sink.cork();
      }
    }
    sink.uncork();
    await sink.close();
    await rename(temp, path);
    complete = true;
    return scored;
  } finally {
    if (!complete) {
      await sink.close().catch(() => undefined);
      await rm(temp, { force: true });
    }
  }
}

/**
 * The planned request a record answers: arrival `repeat`'s, the turn with its question id. The
 * scoring reads only its expectations and set; undefined (nothing to score against) when the plan
 * has no such turn.
 */
function plannedOf(plan: LoadPlan, spec: LoadSpec, record: RequestRecord): PlannedRequest | undefined {
  const turns = spec.conversations ? plan.conversationFor(record.repeat) : [plan.requestFor(record.repeat)];
  for (const turn of turns) if (turn.planned.question_id === record.question_id) return turn.planned;
  return undefined;
}
