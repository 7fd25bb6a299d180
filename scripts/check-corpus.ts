/**
 * Sanity checker for the simulated service's knowledge base (`datasets/corpus.json`) and the sample
 * questions over it (`datasets/sample.csv`). Run: `npx tsx scripts/check-corpus.ts [corpus] [dataset]`.
 *
 * It validates both files, then replays every question through the same retrieval the simulator
 * uses (minisearch BM25 over title + content, title boosted 2x, prefix, fuzzy 0.1, OR) with the row's
 * filters, and prints where the first expected document ranks. Exit 0 when everything passes and the
 * retrieval targets are met, 1 otherwise; every problem is listed, not just the first.
 *
 * Per question it prints the rank of the best-placed expected document in the top 5, the BM25 score
 * and the coverage of the top document (rarity-weighted share of the question's non-stop words that
 * the document contains: the signal the simulator's `min_coverage` relevance threshold uses). Raw
 * BM25 grows with question length and prefix matches of short words, so an expect_no_answer
 * question only has to score below every answerable one; its coverage should be far lower still.
 *
 * The corpus format (the schema below is its reference):
 *   { organisation, documents: [Document], pages: [{ url, content }] }
 *   Document = { document_id (kebab-case, unique), title (-> SearchDoc.semantic_identifier),
 *     link (unique; open-urls serves `content` at it), source_type (lowercase DocumentSource),
 *     document_sets: string[], tags: { key: value } (-> metadata and tag filters),
 *     primary_owners, secondary_owners: string[], created_at, updated_at (ISO date-times),
 *     content (paragraphs separated by blank lines) }
 *   `pages` are extra web pages only open-urls serves (not searchable).
 *
 * Conversations (`conversation`, `turn`): a later turn is searched as the simulator searches a
 * follow-up, its conversation's last two earlier questions with it; turns must run 1, 2, … and
 * the conversation's follow-ups must lean on the history (they are short of it on their own).
 */
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import MiniSearch from 'minisearch';
import { z } from 'zod';
import { DateTimeSchema, DocumentSourceSchema } from '../src/api/index.js';

const DocumentSchema = z.object({
  document_id: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'document_id must be lowercase kebab-case'),
  title: z.string().trim().min(1),
  link: z.url(),
  source_type: DocumentSourceSchema,
  document_sets: z.array(z.string().trim().min(1)).min(1),
  tags: z.record(z.string().min(1), z.string().min(1)),
  primary_owners: z.array(z.email()),
  secondary_owners: z.array(z.email()),
  created_at: DateTimeSchema,
  updated_at: DateTimeSchema,
  content: z.string().trim().min(1),
});
type Document = z.infer<typeof DocumentSchema>;

const CorpusSchema = z.object({
  organisation: z.string().trim().min(1),
  documents: z.array(DocumentSchema).min(1),
  pages: z.array(z.object({ url: z.url(), content: z.string().min(1) })).default([]),
});
type Corpus = z.infer<typeof CorpusSchema>;

const HEADER =
  'id,question,expected_documents,must_contain,must_not_contain,expect_no_answer,category,source_type,document_set,tags,time_cutoff,reference_answer,rubric,conversation,turn,expected_tools';
/** A follow-up is searched with this many earlier questions of its conversation (the simulator's sessions.history_turns). */
const HISTORY_TURNS = 2;
const list = (cell: string) =>
  cell
    .split('|')
    .map((s) => s.trim())
    .filter((s) => s !== '');
const RowSchema = z.object({
  id: z.string().regex(/^q\d{3}$/, 'id must look like q001'),
  question: z.string().trim().min(1),
  expected_documents: z.string().transform(list),
  must_contain: z.string().transform(list),
  must_not_contain: z.string().transform(list),
  expect_no_answer: z.enum(['true', 'false']).transform((v) => v === 'true'),
  category: z.enum(['hr', 'finance', 'engineering', 'security', 'product', 'support']),
  source_type: z.string().transform(list),
  document_set: z.string().transform(list),
  tags: z
    .string()
    .transform(list)
    .pipe(z.array(z.string().regex(/^[^=]+=[^=]+$/, 'tags are key=value'))),
  time_cutoff: z.union([z.literal(''), DateTimeSchema]),
  reference_answer: z.string().trim(),
  rubric: z.string().trim(),
  conversation: z.string(),
  turn: z
    .union([z.literal(''), z.string().regex(/^[1-9]\d*$/, 'turn is 1, 2, …')])
    .transform((t) => (t === '' ? null : Number(t))),
  expected_tools: z.string().transform(list),
});
type Row = z.infer<typeof RowSchema> & { line: number };

/** House rules for the shipped corpus (the simulator itself accepts any valid file). */
const RULES = {
  minDocuments: 64,
  words: [150, 450],
  sets: [1, 2],
  tags: [2, 3],
  years: [2021, 2026],
  pages: [3, 5],
} as const;
const TARGETS = { rank1: 0.85, top5: 0.95 } as const;
const TOP_K = 5;
const STOP_WORDS = new Set(
  (
    'a an and are as at be by can could do does for from how i if in is it its me my of on or our ' +
    'should so that the their there this to was we what when where which who why will with you your'
  ).split(' '),
);

const NON_ASCII = /[^\p{ASCII}]/u;
const problems: string[] = [];
const say = (line = '') => process.stdout.write(`${line}\n`);
const fold = (text: string) => text.toLowerCase().replace(/\s+/g, ' ');
const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

function loadCorpus(path: string): Corpus | undefined {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    problems.push(`${path}: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
  const result = CorpusSchema.safeParse(value);
  if (!result.success) {
    problems.push(`${path}: invalid corpus\n${z.prettifyError(result.error)}`);
    return undefined;
  }
  return result.data;
}

function checkCorpusRules(corpus: Corpus, path: string): void {
  const docs = corpus.documents;
  const dup = (values: string[], what: string) =>
    values.forEach((v, i) => {
      if (values.indexOf(v) !== i) problems.push(`${path}: duplicate ${what} "${v}"`);
    });
  dup(
    docs.map((d) => d.document_id),
    'document_id',
  );
  dup([...docs.map((d) => d.link), ...corpus.pages.map((p) => p.url)], 'link/url');
  if (docs.length < RULES.minDocuments)
    problems.push(`${path}: ${docs.length} documents, want at least ${RULES.minDocuments}`);
  const inRange = (n: number, [lo, hi]: readonly [number, number]) => n >= lo && n <= hi;
  for (const d of docs) {
    const at = `${path}: ${d.document_id}`;
    const words = d.content.split(/\s+/).length;
    if (!inRange(words, RULES.words)) problems.push(`${at}: ${words} words, want ${RULES.words.join('-')}`);
    if (!inRange(d.document_sets.length, RULES.sets))
      problems.push(`${at}: ${d.document_sets.length} document sets, want ${RULES.sets.join('-')}`);
    if (!inRange(Object.keys(d.tags).length, RULES.tags))
      problems.push(`${at}: ${Object.keys(d.tags).length} tags, want ${RULES.tags.join('-')}`);
    if (Date.parse(d.updated_at) < Date.parse(d.created_at)) problems.push(`${at}: updated_at is before created_at`);
    for (const date of [d.created_at, d.updated_at]) {
      if (!inRange(new Date(date).getUTCFullYear(), RULES.years))
        problems.push(`${at}: ${date} outside ${RULES.years.join('-')}`);
    }
    if (!d.content.includes('\n\n')) problems.push(`${at}: content has a single paragraph`);
  }
  const nonAscii = docs.filter((d) => NON_ASCII.test(d.content + d.title)).map((d) => d.document_id);
  if (nonAscii.length > 3)
    problems.push(`${path}: ${nonAscii.length} documents with non-ASCII text (want at most 3): ${nonAscii.join(', ')}`);
  const pages = corpus.pages;
  if (!inRange(pages.length, RULES.pages))
    problems.push(`${path}: ${pages.length} pages, want ${RULES.pages.join('-')}`);
  if (!pages.some((p) => p.content.length > 16_000))
    problems.push(`${path}: no page longer than 16,000 characters (open-urls truncation)`);
  if (!pages.some((p) => NON_ASCII.test(p.content))) problems.push(`${path}: no page with non-ASCII text`);
  say(
    `corpus: ${docs.length} documents, ${pages.length} pages (longest ${Math.max(...pages.map((p) => p.content.length))} chars), ` +
      `${new Set(docs.map((d) => d.source_type)).size} source types, ${new Set(docs.flatMap((d) => d.document_sets)).size} document sets, ` +
      `non-ASCII documents: ${nonAscii.join(', ') || 'none'}`,
  );
}

function loadRows(path: string): Row[] {
  const text = readFileSync(path, 'utf8').replace(/\r\n/g, '\n');
  if (
    text
      .replace(/^\uFEFF/, '')
      .split('\n')[0]
      ?.trim() !== HEADER
  ) {
    problems.push(`${path}: header must be exactly\n  ${HEADER}`);
    return [];
  }
  let records: Array<{ record: Record<string, string>; info: { lines: number } }>;
  try {
    records = parse(text, { columns: true, bom: true, info: true }) as unknown as typeof records;
  } catch (error) {
    problems.push(`${path}: ${error instanceof Error ? error.message : String(error)}`);
    return [];
  }
  const rows: Row[] = [];
  for (const { record, info } of records) {
    // info.lines is where the record ends; only quoted cells hold newlines.
    const line = info.lines - Object.values(record).reduce((n, cell) => n + cell.split('\n').length - 1, 0);
    const result = RowSchema.safeParse(record);
    if (result.success) rows.push({ ...result.data, line });
    else problems.push(`${path}:${line}: ${z.prettifyError(result.error).replace(/\n/g, ' ')}`);
  }
  return rows;
}

/** The row's filters as the simulator applies BaseFilters: each given field restricts; values in one field are alternatives. */
function admits(row: Row, doc: Document): boolean {
  if (row.source_type.length > 0 && !row.source_type.includes(doc.source_type)) return false;
  if (row.document_set.length > 0 && !doc.document_sets.some((s) => row.document_set.includes(s))) return false;
  if (
    row.tags.length > 0 &&
    !row.tags.some((kv) => {
      const [k = '', v] = kv.split('=');
      return doc.tags[k] === v;
    })
  )
    return false;
  return row.time_cutoff === '' || Date.parse(doc.updated_at) >= Date.parse(row.time_cutoff);
}

function checkRows(rows: Row[], byId: Map<string, Document>, path: string): void {
  const ids = new Set<string>();
  for (const row of rows) {
    const at = `${path}:${row.line}: ${row.id}`;
    if (ids.has(row.id)) problems.push(`${at}: duplicate id`);
    ids.add(row.id);
    if (row.expect_no_answer !== (row.expected_documents.length === 0)) {
      problems.push(`${at}: expect_no_answer rows have no expected_documents, and every other row has some`);
    }
    const expected = row.expected_documents.map((id) => byId.get(id));
    row.expected_documents.forEach((id, i) => {
      if (expected[i] === undefined) problems.push(`${at}: expected document "${id}" is not in the corpus`);
      else if (!admits(row, expected[i])) problems.push(`${at}: the row's filters exclude expected document "${id}"`);
    });
    for (const phrase of row.must_contain) {
      if (!expected.some((d) => d !== undefined && fold(d.content).includes(fold(phrase)))) {
        problems.push(`${at}: must_contain "${phrase}" is in no expected document`);
      }
    }
    checkReference(
      row,
      expected.filter((d): d is Document => d !== undefined),
      at,
    );
  }
  checkConversations(rows, path);
  const count = (pred: (r: Row) => boolean) => rows.filter(pred).length;
  const categories = [...new Set(rows.map((r) => r.category))];
  const perCategory = categories.map((c) => `${c} ${count((r) => r.category === c)}`).join(', ');
  say(
    `dataset: ${rows.length} questions (${perCategory}); must_contain ${count((r) => r.must_contain.length > 0)}, ` +
      `expect_no_answer ${count((r) => r.expect_no_answer)}, with filters ${count((r) => r.source_type.length + r.document_set.length + r.tags.length > 0 || r.time_cutoff !== '')}, ` +
      `reference answers ${count((r) => r.reference_answer !== '')}, rubrics ${count((r) => r.rubric !== '')}, ` +
      `conversations ${new Set(rows.flatMap((r) => (r.conversation === '' ? [] : [r.conversation]))).size} (${count((r) => r.conversation !== '')} turns)`,
  );
}

/**
 * Reference answers: every answerable row has one, no expect_no_answer row does; it states the
 * row's must_contain phrases, and every number in it is in an expected document (a reference must
 * be true of the corpus, or correctness judges against a mistake).
 */
function checkReference(row: Row, expected: readonly Document[], at: string): void {
  if (row.expect_no_answer) {
    if (row.reference_answer !== '') problems.push(`${at}: an expect_no_answer row has no reference answer`);
    return;
  }
  if (row.reference_answer === '')
    return void problems.push(`${at}: no reference_answer (every answerable row has one)`);
  for (const phrase of row.must_contain) {
    if (!fold(row.reference_answer).includes(fold(phrase)))
      problems.push(`${at}: the reference answer does not state must_contain "${phrase}"`);
  }
  for (const number of row.reference_answer.match(/\d+(?:[.,:]\d+)*/g) ?? []) {
    if (!expected.some((d) => d.content.includes(number)))
      problems.push(`${at}: the reference answer's "${number}" is in no expected document`);
  }
}

/** Turns 1, 2, … per conversation, every conversation of 2 to 4 turns, and no turn without a conversation. */
function checkConversations(rows: Row[], path: string): void {
  const turns = new Map<string, number[]>();
  for (const row of rows) {
    if ((row.conversation === '') !== (row.turn === null))
      problems.push(`${path}:${row.line}: ${row.id}: conversation and turn go together`);
    if (row.conversation !== '' && row.turn !== null)
      turns.set(row.conversation, [...(turns.get(row.conversation) ?? []), row.turn]);
  }
  for (const [id, numbers] of turns) {
    if (numbers.join(',') !== numbers.map((_, i) => i + 1).join(','))
      problems.push(`${path}: conversation ${id}: turns ${numbers.join(', ')}, want 1, 2, … in file order`);
    if (numbers.length < 2 || numbers.length > 4)
      problems.push(`${path}: conversation ${id}: ${numbers.length} turns, want 2 to 4`);
  }
}

/** What the simulator searches for a row: a follow-up with its conversation's last earlier questions. */
function searchText(row: Row, rows: readonly Row[]): string {
  if (row.conversation === '' || row.turn === null || row.turn === 1) return row.question;
  const earlier = rows
    .filter((r) => r.conversation === row.conversation && r.turn !== null && r.turn < row.turn)
    .slice(-HISTORY_TURNS);
  return [...earlier.map((r) => r.question), row.question].join(' ');
}

/** Rarity-weighted share of the question's meaningful words that the document contains (a relevance signal). */
function coverage(question: string, doc: Document, idf: (w: string) => number): number {
  const terms = [...new Set(wordsOf(question).filter((w) => !STOP_WORDS.has(w)))];
  const present = new Set(wordsOf(`${doc.title} ${doc.content}`));
  const has = (t: string) => present.has(t) || (t.length >= 4 && [...present].some((w) => w.startsWith(t)));
  const total = terms.reduce((s, t) => s + idf(t), 0);
  return total === 0 ? 0 : terms.filter(has).reduce((s, t) => s + idf(t), 0) / total;
}

function checkRetrieval(corpus: Corpus, rows: Row[]): void {
  const docs = corpus.documents;
  const index = new MiniSearch<{ id: number; title: string; content: string }>({
    fields: ['title', 'content'],
    storeFields: [],
    searchOptions: { boost: { title: 2 }, prefix: true, fuzzy: 0.1, combineWith: 'OR' },
  });
  index.addAll(docs.map((d, id) => ({ id, title: d.title, content: d.content })));
  const df = new Map<string, number>();
  for (const d of docs) for (const w of new Set(wordsOf(`${d.title} ${d.content}`))) df.set(w, (df.get(w) ?? 0) + 1);
  const idf = (w: string) => Math.log(1 + (docs.length - (df.get(w) ?? 0) + 0.5) / ((df.get(w) ?? 0) + 0.5));

  const ranks: Array<number | undefined> = [];
  const answerableTop: number[] = [];
  const noAnswerTop: number[] = [];
  say('\nid    rank  score  cover  top document (first expected)');
  for (const row of rows) {
    const text = searchText(row, rows);
    const hits = index.search(text, { filter: (r) => admits(row, docs[r.id as number] as Document) }).slice(0, TOP_K);
    const top = hits[0];
    const topDoc = top === undefined ? undefined : docs[top.id as number];
    const cover = topDoc === undefined ? 0 : coverage(text, topDoc, idf);
    const cells = [
      row.id.padEnd(5),
      '',
      (top?.score ?? 0).toFixed(1).padStart(5),
      cover.toFixed(2).padStart(6),
      ` ${topDoc?.document_id ?? '-'}`,
    ];
    if (row.expect_no_answer) {
      noAnswerTop.push(top?.score ?? 0);
      cells[1] = ' n/a';
      say(`${cells.join(' ')}  (expect no answer)`);
      continue;
    }
    answerableTop.push(top?.score ?? 0);
    const index1 = hits.findIndex((h) =>
      row.expected_documents.includes((docs[h.id as number] as Document).document_id),
    );
    const rank = index1 === -1 ? undefined : index1 + 1;
    ranks.push(rank);
    cells[1] = (rank === undefined ? '>5' : String(rank)).padStart(4);
    say(`${cells.join(' ')}${rank === 1 ? '' : `  (${row.expected_documents[0]})`}`);
  }
  reportFigures(ranks, answerableTop, noAnswerTop);
}

function reportFigures(ranks: Array<number | undefined>, answerableTop: number[], noAnswerTop: number[]): void {
  const n = ranks.length;
  const rank1 = ranks.filter((r) => r === 1).length / n;
  const top5 = ranks.filter((r) => r !== undefined).length / n;
  const mrr = ranks.reduce<number>((s, r) => s + (r === undefined ? 0 : 1 / r), 0) / n;
  const sorted = [...answerableTop].sort((a, b) => a - b);
  const minAnswerable = sorted[0] ?? 0;
  const maxNoAnswer = Math.max(0, ...noAnswerTop);
  say(
    `\nretrieval over ${n} answerable questions: rank 1 ${(rank1 * 100).toFixed(1)}% (target ${TARGETS.rank1 * 100}%), ` +
      `top ${TOP_K} ${(top5 * 100).toFixed(1)}% (target ${TARGETS.top5 * 100}%), MRR@${TOP_K} ${mrr.toFixed(3)}`,
  );
  say(
    `top BM25 score: answerable min ${minAnswerable.toFixed(1)}, median ${(sorted[Math.floor(sorted.length / 2)] ?? 0).toFixed(1)}; ` +
      `expect_no_answer ${noAnswerTop.map((s) => s.toFixed(1)).join(', ') || '-'} (max ${maxNoAnswer.toFixed(1)})`,
  );
  if (rank1 < TARGETS.rank1)
    problems.push(`retrieval: rank 1 for ${(rank1 * 100).toFixed(1)}%, target ${TARGETS.rank1 * 100}%`);
  if (top5 < TARGETS.top5)
    problems.push(`retrieval: top ${TOP_K} for ${(top5 * 100).toFixed(1)}%, target ${TARGETS.top5 * 100}%`);
  if (noAnswerTop.length > 0 && maxNoAnswer >= minAnswerable) {
    problems.push(
      `retrieval: an expect_no_answer question scores ${maxNoAnswer.toFixed(1)}, not below every answerable question (min ${minAnswerable.toFixed(1)})`,
    );
  }
}

function main(): number {
  const [corpusPath = 'datasets/corpus.json', datasetPath = 'datasets/sample.csv'] = process.argv.slice(2);
  const corpus = loadCorpus(corpusPath);
  const rows = loadRows(datasetPath);
  if (corpus !== undefined) {
    checkCorpusRules(corpus, corpusPath);
    checkRows(rows, new Map(corpus.documents.map((d) => [d.document_id, d])), datasetPath);
    checkRetrieval(corpus, rows);
  }
  if (problems.length === 0) {
    say('\nall checks passed');
    return 0;
  }
  process.stderr.write(`\n${problems.length} problem(s):\n${problems.map((p) => `- ${p}`).join('\n')}\n`);
  return 1;
}

process.exitCode = main();
