/**
 * @module dataset/read-labels
 * A labels file (`--labels FILE`): human verdicts for the judge's agreement, one per line of a CSV
 * with the columns `question_id` (or `id`), `verdict` (or `human_verdict`: pass or fail; true/false,
 * yes/no, 1/0 also read) and optionally `set` (the verdict is on that set's answer only) and
 * `figure` (on that judged figure only). Every problem is listed at once, `file:line: column:
 * message`, before anything is sent.
 */
import { parse } from 'csv-parse/sync';
import { InputError } from '../errors.js';
import { LabelSchema, type Label } from '../records/labels.js';
import { JUDGE_FIGURES, type LabelVerdict } from '../records/quality.js';
import { readUtf8File, type InputFile } from './read-text.js';

const VERDICTS: Record<string, LabelVerdict> = {
  pass: 'pass',
  fail: 'fail',
  good: 'pass',
  bad: 'fail',
  true: 'pass',
  false: 'fail',
  yes: 'pass',
  no: 'fail',
  1: 'pass',
  0: 'fail',
};

/** What the labels may name: the dataset's question ids and the run's sets. */
export interface LabelScope {
  questionIds: ReadonlySet<string>;
  sets: readonly string[];
}

/** Reads and checks a labels file; InputError listing every problem. */
export async function readLabels(file: InputFile, scope: LabelScope): Promise<Label[]> {
  const name = file.path;
  const text = (await readUtf8File(file)).replace(/\r\n/g, '\n');
  let rows: string[][];
  try {
    rows = parse(text, { bom: true, skip_empty_lines: true, relax_column_count: true }) as string[][];
  } catch (error) {
    throw new InputError([`${name}: not a CSV file (${(error as Error).message})`], { cause: error });
  }
  const [header, ...body] = rows;
  const columns = (header ?? []).map((c) => c.trim());
  const at = (...names: string[]) => columns.findIndex((c) => names.includes(c));
  const [idAt, verdictAt, setAt, figureAt] = [
    at('question_id', 'id'),
    at('verdict', 'human_verdict'),
    at('set'),
    at('figure'),
  ];
  if (idAt === -1 || verdictAt === -1) {
    throw new InputError([
      `${name}:1: the header needs a question_id (or id) and a verdict (or human_verdict) column; it is: ${columns.join(',')}`,
    ]);
  }
  const problems: string[] = [];
  const labels: Label[] = [];
  const seen = new Map<string, number>();
  body.forEach((cells, index) => {
    const line = index + 2;
    const cell = (i: number) => (i === -1 ? '' : (cells[i] ?? '').trim());
    const problem = (column: string, message: string) => problems.push(`${name}:${line}: ${column}: ${message}`);
    const questionId = cell(idAt);
    const verdict = VERDICTS[cell(verdictAt).toLowerCase()];
    const set = cell(setAt) === '' ? null : cell(setAt);
    const figure = cell(figureAt) === '' ? null : cell(figureAt);
    if (questionId === '') problem(columns[idAt]!, 'is empty');
    else if (!scope.questionIds.has(questionId)) problem(columns[idAt]!, `no question "${questionId}" in the dataset`);
    if (verdict === undefined)
      problem(
        columns[verdictAt]!,
        `"${cell(verdictAt)}" is not a verdict (pass or fail; good/bad, true/false, yes/no, 1/0 also read)`,
      );
    if (set !== null && !scope.sets.includes(set))
      problem('set', `no set "${set}" in the run (its sets: ${scope.sets.join(', ')})`);
    if (figure !== null && !(JUDGE_FIGURES as readonly string[]).includes(figure))
      problem('figure', `"${figure}" is not a judged figure (${JUDGE_FIGURES.join(', ')})`);
    const key = JSON.stringify([questionId, set, figure]);
    const first = seen.get(key);
    if (first !== undefined)
      problem(columns[idAt]!, `a second verdict for the same answer and figure (first on line ${first})`);
    seen.set(key, line);
    const parsed = LabelSchema.safeParse({ question_id: questionId, set, figure, verdict, source: `${name}:${line}` });
    if (parsed.success) labels.push(parsed.data);
  });
  if (body.length === 0) problems.push(`${name}: no labels (the file has only a header row)`);
  if (problems.length > 0) throw new InputError(problems);
  return labels;
}
