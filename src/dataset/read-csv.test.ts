import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BaseFiltersSchema } from '../api/index.js';
import { InputError } from '../errors.js';
import { metadataColumns, readDataset } from './read-csv.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chatbench-dataset-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

let counter = 0;
/** Writes `content` to a fresh file and reads it back as a dataset named `data.csv` in messages. */
async function read(content: string | Uint8Array) {
  const name = `data-${(counter += 1)}.csv`;
  await writeFile(join(dir, name), content);
  return readDataset({ path: name, cwd: dir });
}
async function problemsOf(content: string | Uint8Array): Promise<readonly string[]> {
  const error = await read(content).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InputError);
  return (error as InputError).problems.map((line) => line.replace(/^data-\d+\.csv/, 'data.csv'));
}

const HEADER = 'id,question,expected_documents,must_contain,expect_no_answer,persona_id,tags,time_cutoff,source_type\n';

describe('readDataset: file-level problems', () => {
  it('a missing file', async () => {
    await expect(readDataset({ path: 'nope.csv', cwd: dir })).rejects.toThrow(
      new InputError(['nope.csv: no such file']),
    );
  });
  it('a directory', async () => {
    await expect(readDataset({ path: '.', cwd: dir })).rejects.toThrow(
      new InputError(['.: is a directory, not a file']),
    );
  });
  it.each([
    { name: 'no bytes', content: '', want: 'data.csv: empty file' },
    { name: 'only a BOM and blank lines', content: '\uFEFF\n\r\n', want: 'data.csv: empty file' },
    {
      name: 'Latin-1 bytes',
      content: Buffer.concat([Buffer.from('id,question\nq1,caf'), Buffer.from([0xe9]), Buffer.from('?\n')]),
      want: 'data.csv: not UTF-8 (first invalid byte on line 2; save the file as UTF-8)',
    },
    {
      name: 'no question column (capitalised)',
      content: 'id,Question\nq1,hi\n',
      want: 'data.csv: no "question" column ("Question" is not it: column names are lowercase); the header row is: id,Question',
    },
    {
      name: 'no question column',
      content: 'id,text\nq1,hi\n',
      want: 'data.csv: no "question" column; the header row is: id,text',
    },
    {
      name: 'a ";"-separated file (issue 27: named, not "no question column")',
      content: 'id;question;expected_documents\nq1;how do I reset, please?;doc-1\n',
      want: 'data.csv:1: the header row is separated by semicolons (";") ("id;question;expected_documents"): datasets are comma-separated CSV; save the file with "," as the separator (a spreadsheet\'s "CSV (comma delimited)")',
    },
    {
      name: 'a tab-separated file',
      content: 'id\tQuestion\nq1\thi\n',
      want: 'data.csv:1: the header row is separated by tabs ("id\tQuestion"): datasets are comma-separated CSV; save the file with "," as the separator (a spreadsheet\'s "CSV (comma delimited)")',
    },
    {
      name: 'only a header',
      content: 'id,question\n',
      want: 'data.csv: no questions (the file has only a header row)',
    },
    {
      name: 'an unterminated quote (line where the record starts)',
      content: 'id,question\nq1,fine\n\nq2,"never closed\nq3,more\n',
      want: 'data.csv:4: unterminated quote: a quoted cell opened in this record is never closed',
    },
    {
      name: 'a quote inside an unquoted cell',
      content: 'id,question\nq1,fine\nq2,say "hi"\n',
      want: 'data.csv:3: a double quote inside an unquoted cell (quote the whole cell and double the inner quotes: "say ""hi""")',
    },
    {
      name: 'text after a closing quote',
      content: 'id,question\nq1,"say" hi\n',
      want: 'data.csv:2: text after the closing quote of a cell (double a quote that is part of the text: "say ""hi""")',
    },
  ])('$name', async ({ content, want }) => {
    expect(await problemsOf(content)).toEqual([want]);
  });
  it('header problems: an unnamed and a repeated column', async () => {
    expect(await problemsOf('id,question,,id\nq1,hi,,\n')).toEqual([
      'data.csv:1: column 3 has no name',
      'data.csv:1: column "id" appears twice',
    ]);
  });
});

describe('readDataset: row problems, each with file:line: column: message', () => {
  it.each([
    { name: 'empty question', row: 'q1,,,,,,,,', want: 'data.csv:2: question: is empty' },
    {
      name: 'bad boolean',
      row: 'q1,hi,,,maybe,,,,',
      want: 'data.csv:2: expect_no_answer: "maybe" is not a boolean (use true/false, yes/no, 1/0, or leave it empty)',
    },
    {
      name: 'expected id with spaces',
      row: 'q1,hi,d1| d2,,,,,,',
      want: 'data.csv:2: expected_documents: element 2 " d2" has surrounding spaces',
    },
    { name: 'empty element', row: 'q1,hi,d1||d3,,,,,,', want: 'data.csv:2: expected_documents: element 2 is empty' },
    { name: 'trailing separator', row: 'q1,hi,d1|,,,,,,', want: 'data.csv:2: expected_documents: element 2 is empty' },
    {
      name: 'repeated id',
      row: 'q1,hi,d1|d1,,,,,,',
      want: 'data.csv:2: expected_documents: element 2 "d1" repeats element 1',
    },
    {
      name: 'JSON array of a number',
      row: 'q1,hi,"[""d1"", 7]",,,,,,',
      want: 'data.csv:2: expected_documents: element 2 is not a string',
    },
    {
      name: 'broken JSON array',
      row: 'q1,hi,"[""d1""",,,,,,',
      want: 'data.csv:2: expected_documents: not a JSON array of strings (or use ids separated by "|")',
    },
    { name: 'empty phrase', row: 'q1,hi,,a||b,,,,,', want: 'data.csv:2: must_contain: element 2 is empty' },
    { name: 'bad integer', row: 'q1,hi,,,,1.5,,,', want: 'data.csv:2: persona_id: "1.5" is not an integer' },
    { name: 'bad tags', row: 'q1,hi,,,,,team=a|env,,', want: 'data.csv:2: tags: element 2 "env" is not key=value' },
    {
      name: 'tag without a value',
      row: 'q1,hi,,,,,team=,,',
      want: 'data.csv:2: tags: element 1 "team=" is not key=value',
    },
    {
      name: 'bad time_cutoff',
      row: 'q1,hi,,,,,,last week,',
      want: 'data.csv:2: time_cutoff: "last week" is not an ISO date-time (e.g. 2024-05-01T00:00:00Z)',
    },
    {
      name: 'bad source type',
      row: 'q1,hi,,,,,,,Web',
      want: 'data.csv:2: source_type: element 1 "Web" is not a source type (a lowercase identifier such as "web" or "github")',
    },
    {
      name: 'too many cells',
      row: 'q1,hi,a,b,c, 1,d=e,,web,extra',
      want: 'data.csv:2: 10 cells but the header has 9 columns (quote cells that contain a comma)',
    },
  ])('$name', async ({ row, want }) => {
    expect(await problemsOf(`${HEADER}${row}\n`)).toEqual([want]);
  });

  it('duplicate ids name the first line, even when that row has other problems', async () => {
    expect(await problemsOf('id,question\nq1,\nq2,b\n"q1",c\n')).toEqual([
      'data.csv:2: question: is empty',
      'data.csv:4: id: duplicate id "q1" (first on line 2)',
    ]);
  });

  it('lists every problem of the file at once, in line order, with the line where each record starts', async () => {
    const csv = [
      'id,question,expect_no_answer,project_id',
      'q1,"a question',
      'over two lines",nope,',
      '',
      'q2,fine,yes,x',
      'q1,dup,,',
    ].join('\r\n');
    expect(await problemsOf(csv)).toEqual([
      'data.csv:2: expect_no_answer: "nope" is not a boolean (use true/false, yes/no, 1/0, or leave it empty)',
      'data.csv:5: project_id: "x" is not an integer',
      'data.csv:6: id: duplicate id "q1" (first on line 2)',
    ]);
  });
});

describe('readDataset: good files', () => {
  it('BOM, CRLF, a quoted multi-line question with a comma and a quote, blank and empty rows skipped', async () => {
    const csv =
      '\uFEFFid,question,category\r\nq1,"How many days,\r\nand what is ""PTO""?",hr\r\n\r\n,,\r\nq2,Next?,\r\n';
    const dataset = await read(csv);
    expect(dataset.rows.map(({ id, question, line, category }) => ({ id, question, line, category }))).toEqual([
      { id: 'q1', question: 'How many days,\nand what is "PTO"?', line: 2, category: 'hr' },
      { id: 'q2', question: 'Next?', line: 6, category: null },
    ]);
    expect(dataset.columns).toEqual(['id', 'question', 'category']);
    expect(dataset.categories).toEqual(['hr']);
  });

  it('ids default to the row number; header names are trimmed', async () => {
    const dataset = await read(' question , id \nfirst,\nsecond,s2\nthird,\n');
    expect(dataset.rows.map((row) => row.id)).toEqual(['1', 's2', '3']);
    expect(dataset.columns).toEqual(['question', 'id']);
  });

  it('expectations from "|" lists and JSON arrays; booleans in every spelling', async () => {
    const csv = [
      'question,expected_documents,must_contain,must_not_contain,expect_no_answer',
      'a,d1|d2, 20 days | HR ,sorry,TRUE',
      'b,"[""d3"",""d 4""]",,,no',
      'c,,,,1',
      'd,[],,,',
    ].join('\n');
    const rows = (await read(csv)).rows.map((row) => row.expectations);
    const none = {
      must_match: [],
      must_not_match: [],
      reference_answer: null,
      rubric: null,
      human_verdict: null,
      expected_tools: [],
    };
    expect(rows).toEqual([
      {
        expected_document_ids: ['d1', 'd2'],
        must_contain: ['20 days', 'HR'],
        must_not_contain: ['sorry'],
        expect_no_answer: true,
        ...none,
      },
      {
        expected_document_ids: ['d3', 'd 4'],
        must_contain: [],
        must_not_contain: [],
        expect_no_answer: false,
        ...none,
      },
      { expected_document_ids: [], must_contain: [], must_not_contain: [], expect_no_answer: true, ...none },
      { expected_document_ids: [], must_contain: [], must_not_contain: [], expect_no_answer: false, ...none },
    ]);
  });

  it('answer-quality columns: a reference answer, a rubric, a human verdict, patterns (one, or a JSON array)', async () => {
    const csv = [
      'question,reference_answer,rubric,human_verdict,must_match,must_not_match',
      'a, 25 days of PTO ,"Names ""PeopleHub"".",pass,\\b25 days\\b,"[""/sorry/i"", ""not sure""]"',
      'b,,,FAIL,/^[A-Z]/,',
      'c,,,,[Dd]ay[s],',
    ].join('\n');
    const rows = (await read(csv)).rows.map((row) => row.expectations);
    expect(rows[0]).toMatchObject({
      reference_answer: '25 days of PTO',
      rubric: 'Names "PeopleHub".',
      human_verdict: 'pass',
      must_match: ['/\\b25 days\\b/iu'],
      must_not_match: ['/sorry/i', '/not sure/iu'],
    });
    expect(rows[1]).toMatchObject({ reference_answer: null, human_verdict: 'fail', must_match: ['/^[A-Z]/'] });
    expect(rows[2]?.must_match).toEqual(['/[Dd]ay[s]/iu']);
  });

  it('reports a bad pattern or verdict with its line and column', async () => {
    const csv = [
      'question,must_match,must_not_match,human_verdict',
      'a,(unclosed,/x/g,maybe',
      'b,"["""", ""ok""]",,',
    ].join('\n');
    expect(await problemsOf(csv)).toEqual([
      'data.csv:2: human_verdict: "maybe" is not a verdict (pass or fail; good/bad, true/false, yes/no, 1/0 also read)',
      expect.stringMatching(/^data\.csv:2: must_match: invalid regular expression "\(unclosed": .*Unterminated group/),
      'data.csv:2: must_not_match: invalid regular expression "/x/g": flags "g": only i, m, s and u are allowed',
      'data.csv:3: must_match: element 1: not a pattern (a non-empty string)',
    ]);
  });

  it('filters become BaseFilters (null when none); other columns are kept as metadata', async () => {
    const csv = [
      'id,question,source_type,document_set,tags,time_cutoff,persona_id,project_id,additional_context,owner,difficulty',
      'q1,a,github|web,Engineering|Runbooks,team=sre|tier=1,2024-05-01T00:00:00Z,3,7,Be brief.,alice,hard',
      'q2,b,,,,,,,,bob,',
    ].join('\n');
    const dataset = await read(csv);
    const [first, second] = dataset.rows;
    expect(first?.filters).toEqual({
      source_type: ['github', 'web'],
      document_set: ['Engineering', 'Runbooks'],
      tags: [
        { tag_key: 'team', tag_value: 'sre' },
        { tag_key: 'tier', tag_value: '1' },
      ],
      time_cutoff: '2024-05-01T00:00:00Z',
    });
    expect(BaseFiltersSchema.parse(first?.filters)).toEqual(first?.filters);
    expect(first).toMatchObject({
      persona_id: 3,
      project_id: 7,
      additional_context: 'Be brief.',
      metadata: { owner: 'alice', difficulty: 'hard' },
    });
    expect(second).toMatchObject({
      filters: null,
      persona_id: null,
      project_id: null,
      additional_context: null,
      metadata: { owner: 'bob', difficulty: '' },
    });
    expect(metadataColumns(dataset)).toEqual(['owner', 'difficulty']);
  });

  it('a row with fewer cells than the header reads the missing ones as empty', async () => {
    const dataset = await read('id,question,category\nq1,hi\n');
    expect(dataset.rows[0]).toMatchObject({ id: 'q1', question: 'hi', category: null });
  });
});
