/**
 * @module app/shared/view-expectations
 * The viewer's "Expected documents" of a run directory: the candidates `chatbench
 * draft-expectations` wrote there (expectations-draft.candidates.json), the person's accept /
 * reject of each (expectations.jsonl, appended one line a decision), and the completed dataset they
 * make from the draft (expectations-draft.csv) for the viewer's export. A run without a candidates
 * file has no such panel, never an error.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { scanDataset } from '../../dataset/index.js';
import type { DraftQuestion, DraftRow } from '../../dataset/draft-expectations.js';
import {
  candidatesFileOf,
  CandidatesFileSchema,
  completeExpectations,
  createDecisionsParser,
  DECISION_VERSION,
  DECISIONS_FILE,
  DecisionSchema,
  DRAFT_FILE,
  type Completed,
  type Decision,
  type DecisionKind,
} from '../../dataset/expectation-decisions.js';
import { InputError } from '../../errors.js';
import { readFileLines } from '../../util/file-lines.js';
import { appendJsonLine } from '../store/reviews.js';

/** A run's candidates and decisions, as the viewer holds them while it serves. */
export interface RunExpectations {
  readonly dir: string;
  readonly questions: ReadonlyMap<string, DraftQuestion>;
  /** Question id → document id → its last decision (updated as decisions are saved). */
  readonly decisions: Map<string, Map<string, DecisionKind>>;
}

/** The run's candidates and decisions; null when draft-expectations has not been run there. */
export async function readRunExpectations(dir: string): Promise<RunExpectations | null> {
  const name = join(dir, candidatesFileOf(DRAFT_FILE));
  let text: string;
  try {
    text = await readFile(name, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new InputError([`${name}: cannot read (${(error as NodeJS.ErrnoException).code ?? String(error)})`]);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new InputError([`${name}: not JSON (${(error as Error).message})`]);
  }
  const parsed = CandidatesFileSchema.safeParse(json);
  if (!parsed.success)
    throw new InputError(
      parsed.error.issues.map((i) => `${name}: ${i.path.join('.')}: ${i.message}`),
      {
        hint: 'write it again: chatbench draft-expectations RUN',
      },
    );
  // Read with the run-file line cap, as reviews.jsonl is.
  const file = join(dir, DECISIONS_FILE);
  const parser = createDecisionsParser(file);
  try {
    for await (const line of readFileLines(file, { name: file })) parser.line(line.text, line.number, line.terminated);
  } catch (error) {
    if (error instanceof InputError) throw error;
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new InputError([`${file}: cannot read (${(error as NodeJS.ErrnoException).code ?? String(error)})`]);
  }
  const { decisions, problems } = parser.result();
  if (problems.length > 0)
    throw new InputError(problems, {
      hint: 'expectations.jsonl holds one decision a line, as chatbench view appends them',
    });
  return {
    dir,
    questions: new Map(parsed.data.questions.map((q) => [q.id, q])),
    decisions: new Map([...decisions].map(([q, docs]) => [q, new Map(docs)])),
  };
}

/**
 * Saves one decision: checked against the candidates (a question without expectations, one of its
 * candidates), appended to expectations.jsonl, then held as the candidate's last decision.
 */
export async function saveDecision(
  run: RunExpectations,
  request: { question_id: string; document_id: string; decision: DecisionKind },
  reviewer: string,
  at: Date,
): Promise<Decision> {
  const question = run.questions.get(request.question_id);
  if (question === undefined) throw new InputError([`decision: no candidates for question ${request.question_id}`]);
  if (question.expected.length > 0)
    throw new InputError([`decision: ${request.question_id} has expected documents already (kept as they are)`]);
  if (!question.candidates.some((c) => c.document_id === request.document_id))
    throw new InputError([`decision: ${request.document_id} is not a candidate of ${request.question_id}`]);
  const decision = DecisionSchema.parse({
    decision_version: DECISION_VERSION,
    question_id: request.question_id,
    document_id: request.document_id,
    decision: request.decision,
    reviewer,
    at: at.toISOString(),
  });
  await appendJsonLine(join(run.dir, DECISIONS_FILE), decision);
  const ofQuestion = run.decisions.get(request.question_id) ?? new Map<string, DecisionKind>();
  ofQuestion.set(request.document_id, request.decision);
  run.decisions.set(request.question_id, ofQuestion);
  return decision;
}

/** The completed dataset: the run's draft (expectations-draft.csv) with the accepted candidates. */
export async function completedDataset(run: RunExpectations): Promise<Completed> {
  const draft = join(run.dir, DRAFT_FILE);
  const rows: DraftRow[] = [];
  const shape = await scanDataset(
    { path: draft },
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
  return completeExpectations(shape.columns, rows, [...run.questions.values()], run.decisions);
}
