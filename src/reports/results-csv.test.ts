import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { NASTY_QUESTION, fixtureRecords, makeRecord } from '../../test/fixtures/reports/fixture.js';
import { BASE_COLUMNS, SCORE_COLUMNS, createCsvSink, neutraliseCell, renderResultsCsv } from './results-csv.js';

type Row = Record<string, string>;
const rowsOf = (text: string): Row[] => parse(text, { columns: true }) as Row[];

describe('results.csv', () => {
  it('has the key, outcome, latency, score, pass and metadata columns', () => {
    const header = (parse(renderResultsCsv(fixtureRecords())) as string[][])[0]!;
    expect(header.slice(0, 3)).toEqual(['key', 'question_id', 'question']);
    for (const column of ['outcome', 'http_status', 'error_code', 'ttfp_ms', 'ttft_ms', 'total_ms', 'headers_ms', 'parts', 'answer_chars', 'cited_document_ids', 'citation_precision', 'citation_recall', 'citation_f1', 'ndcg_at_5', 'retrieval_recall_at_5', 'invalid_citations', 'missing_phrases', 'pass', 'meta.difficulty'])
      expect(header).toContain(column);
    expect(header).toHaveLength(BASE_COLUMNS.length + SCORE_COLUMNS.length + 3); // pass, judge_errors, meta.difficulty
    expect(header.filter((c) => c === 'pass')).toHaveLength(1);
  });

  it('writes one row per request and one per model of a multi-model request', () => {
    const rows = rowsOf(renderResultsCsv(fixtureRecords()));
    // 14 records: 12 single-model, 2 with two models each.
    expect(rows).toHaveLength(12 + 4);
    const duo = rows.filter((r) => r.set === 'duo');
    expect(duo.map((r) => [r.question_id, r.model_index, r.model_name, r.outcome])).toEqual([
      ['q1', '0', 'mini', 'ok'],
      ['q1', '1', 'large', 'ok'],
      ['q2', '0', 'mini', 'ok'],
      ['q2', '1', 'large', 'stream_error'],
    ]);
    expect(duo[1]!.citation_precision).toBe('0.5');
    expect(rows.find((r) => r.set === 'fast')!.model_index).toBe('');
  });

  it('leaves N/A cells empty, joins lists with |, writes booleans as words, and keeps hostile text intact', () => {
    const rows = rowsOf(renderResultsCsv(fixtureRecords()));
    const full = rows.find((r) => r.key === 'q1|fast|full|0')!;
    expect(full.ttfp_ms).toBe('');
    expect(full.total_ms).toBe('900');
    const failed = rows.find((r) => r.key === 'q10|fast|stream|0')!;
    expect([failed.outcome, failed.http_status, failed.error_code, failed.citation_recall, failed.pass]).toEqual(['http_error', '503', 'E_BUSY', '', 'false']);
    expect(failed.question).toBe(NASTY_QUESTION);
    const missing = rows.find((r) => r.key === 'q2|fast|stream|0')!;
    expect([missing.missing_phrases, missing.pass, missing.no_answer_ok]).toEqual(['refund <policy>', 'false', '']);
    const twoCited = rowsOf(renderResultsCsv([makeRecord({ question_id: 'q', set: 's', cited_document_ids: ['a', 'b'] })]))[0]!;
    expect([twoCited.cited_document_ids, twoCited.pass, twoCited.first_packet_ms]).toEqual(['a|b', 'true', '{"message_start":40,"citation_info":150}']);
  });

  it('streams: header at creation when metadata columns are given, then a chunk per record', () => {
    const chunks: string[] = [];
    const sink = createCsvSink((c) => chunks.push(c), { metadataColumns: ['team', 'difficulty'] });
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.trimEnd().endsWith('pass,judge_errors,meta.team,meta.difficulty')).toBe(true);
    sink.write(makeRecord({ question_id: 'q1', set: 'a', metadata: { difficulty: 'hard', extra: 'dropped' } }));
    expect(chunks).toHaveLength(2);
    expect(chunks[1]!.trimEnd().endsWith('true,,,hard')).toBe(true);
  });

  it('writes the header alone at close() when no record came', async () => {
    const chunks: string[] = [];
    const sink = createCsvSink((c) => chunks.push(c));
    expect(chunks).toHaveLength(0);
    await sink.close();
    expect(chunks).toHaveLength(1);
    expect(rowsOf(chunks.join(''))).toEqual([]);
  });
});

describe('results.csv against spreadsheet formulas (OWASP)', () => {
  it.each([
    ['=HYPERLINK("http://x")', `'=HYPERLINK("http://x")`], ['+1', "'+1"], ['-2+3', "'-2+3"], ['@SUM(A1)', "'@SUM(A1)"], ['\tx', "'\tx"], ['\rx', "'\rx"],
    ['plain', 'plain'], ['a=b', 'a=b'], ['', ''],
  ])('%j is written as %j', (text, cell) => expect(neutraliseCell(text)).toBe(cell));

  it('numbers stay numbers, negative ones too', () => expect(neutraliseCell(-3)).toBe(-3));
});
