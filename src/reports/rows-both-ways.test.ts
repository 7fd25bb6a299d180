/**
 * The reports built from rows folded in one at a time (junit-cases, distributions, pass-grid-data)
 * against the way they were built before issue 24: every slim row held to the end and read by
 * filters. The reference below is that former code, kept here only as the oracle; the same run
 * must give the same junit.xml bytes, the same CDF points and the same grid cells.
 */
import { describe, expect, it } from 'vitest';
import { makeRecord, makeScores } from '../../test/fixtures/reports/fixture.js';
import type { RequestRecord } from '../records/record.js';
import { cdfPoints } from './distributions.js';
import { naturalCompare } from './format.js';
import { renderJunitXml, xmlAttr, xmlText } from './junit-xml.js';
import { createRowsCollector, rowsOf, type ReportRow } from './report-input.js';
import { columnKey, CDF_FIGURES } from './distributions.js';
import { MAX_GRID_QUESTIONS } from './pass-grid-data.js';
import type { Summary } from '../records/summary.js';

/** A run with what the order and the grouping must survive: sets in both modes, a multi-model set, repeats out of order, failures, errors, a skipped turn, more questions than the grid shows. */
function run(): RequestRecord[] {
  const records: RequestRecord[] = [];
  let seed = 7;
  const random = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
  for (let q = 0; q < 450; q += 1) {
    for (const repeat of q % 5 === 0 ? [2, 0, 1] : [0, 1, 2]) {
      for (const [set, mode] of [['a', 'stream'], ['a', 'full'], ['b', 'stream']] as const) {
        const r = random();
        const outcome = r < 0.05 ? ('http_error' as const) : r < 0.07 ? ('skipped' as const) : ('ok' as const);
        records.push(makeRecord({
          question_id: `q${(q * 37) % 450}`, set, mode, repeat, outcome, http_status: outcome === 'http_error' ? 503 : 200,
          question: q === 3 ? 'Is <b>x</b> & "y"?' : undefined, total_ms: Math.round(random() * 100_000) / 1000, ttfp_ms: outcome === 'ok' ? random() * 300 : null,
          scores: outcome === 'ok' ? makeScores({ pass: r < 0.8, citation_f1: r, citation_recall: r < 0.8 ? 1 : 0 }) : null,
          models: set === 'b' ? [{ model_index: 0, model_name: 'mini', outcome, scores: makeScores({ pass: r < 0.5 }) }, { model_index: 1, model_name: 'large', outcome, scores: makeScores({ pass: r < 0.9 }) }] : null,
        }));
      }
    }
  }
  return records;
}

const summaryOf = (sets: string[]) => ({ run: { sets } }) as unknown as Summary;

// ---- the former row-based code (reports/junit-xml.ts, html/cdf-chart.ts, html/pass-grid.ts before issue 24) ----
const seconds = (ms: number | null) => ((ms ?? 0) / 1000).toFixed(3);
function formerJunit(all: readonly ReportRow[], sets: readonly string[]): string {
  const rows = all.filter((r) => r.model_index === null);
  const repeats = rows.some((r) => r.repeat > 0);
  const suites = new Map<string, ReportRow[]>();
  for (const row of rows) {
    const id = `${row.set}\u0000${row.mode}`;
    const list = suites.get(id);
    if (list) list.push(row);
    else suites.set(id, [row]);
  }
  const rank = (set: string) => (sets.includes(set) ? sets.indexOf(set) : sets.length);
  const ordered = [...suites.values()].sort((a, b) => rank(a[0]!.set) - rank(b[0]!.set) || naturalCompare(a[0]!.set, b[0]!.set) || (a[0]!.mode === b[0]!.mode ? 0 : a[0]!.mode === 'stream' ? -1 : 1));
  const tally = (list: readonly ReportRow[]) => {
    const t = { failures: 0, errors: 0, skipped: 0, s: 0 };
    for (const row of list) {
      if (row.outcome === 'skipped') t.skipped += 1;
      else if (row.outcome !== 'ok') t.errors += 1;
      else if (!row.pass) t.failures += 1;
      t.s += (row.total_ms ?? 0) / 1000;
    }
    return t;
  };
  const testcase = (row: ReportRow, classname: string) => {
    const name = repeats ? `${row.question_id} [r${row.repeat}]` : row.question_id;
    const open = `    <testcase name="${xmlAttr(name)}" classname="${xmlAttr(classname)}" time="${seconds(row.total_ms)}"`;
    if (row.outcome === 'ok' && row.pass) return `${open}/>`;
    if (row.outcome === 'skipped') return [`${open}>`, `      <skipped message="${xmlAttr(row.reasons.join('; ') || 'not sent')}" type="skipped"/>`, '    </testcase>'].join('\n');
    const element = row.outcome === 'ok' ? 'failure' : 'error';
    const details = [`question: ${row.question}`, ...row.reasons.map((r) => `- ${r}`)].join('\n');
    return [`${open}>`, `      <${element} message="${xmlAttr(row.reasons.join('; ') || 'did not pass')}" type="${xmlAttr(row.outcome === 'ok' ? 'fail' : row.outcome)}">${xmlText(details)}</${element}>`, '    </testcase>'].join('\n');
  };
  const body = ordered.map((cases) => {
    const first = cases[0]!;
    const sorted = [...cases].sort((a, b) => naturalCompare(a.question_id, b.question_id) || a.repeat - b.repeat);
    const t = tally(sorted);
    return [
      `  <testsuite name="${xmlAttr(`${first.set} (${first.mode})`)}" tests="${sorted.length}" failures="${t.failures}" errors="${t.errors}" skipped="${t.skipped}" time="${t.s.toFixed(3)}">`,
      ...sorted.map((row) => testcase(row, `chatbench.${first.set}.${first.mode}`)),
      '  </testsuite>',
    ].join('\n');
  });
  const t = tally(rows);
  return ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites name="chatbench" tests="${rows.length}" failures="${t.failures}" errors="${t.errors}" time="${t.s.toFixed(3)}">`, ...body, '</testsuites>', ''].join('\n');
}
// ----

describe('reports from rows folded in one at a time, against rows held to the end', () => {
  const records = run();
  const rows = records.flatMap((r) => rowsOf(r));
  const collector = createRowsCollector();
  for (const row of rows) collector.add(row);
  const folded = collector.finish();

  it('junit.xml is the same bytes (questions as failures, no gates)', () => {
    const sets = ['b', 'a'];
    const former = formerJunit(rows, sets);
    expect(renderJunitXml({ summary: summaryOf(sets), junit: folded.junit }, { gates: null, questions: 'failures' })).toBe(former);
  });

  it('the CDF of every column and figure has the same points', () => {
    const columns = [...new Set(rows.map((r) => columnKey(r)))];
    for (const key of columns) {
      for (const figure of CDF_FIGURES) {
        const values = rows.filter((r) => columnKey(r) === key && r.outcome === 'ok').map((r) => r[figure]).filter((v): v is number => v !== null && Number.isFinite(v));
        const line = folded.distributions.get(key)?.[figure];
        expect(line?.points ?? []).toEqual(cdfPoints(values));
        expect(line?.n ?? 0).toBe(values.length);
      }
    }
  });

  it('the grid shows the first questions in natural order, each cell with the counts and reasons of its rows', () => {
    const all = [...new Set(rows.filter((r) => r.model_index === null).map((r) => r.question_id))].sort(naturalCompare);
    expect(folded.grid.questionCount).toBe(all.length);
    expect(folded.grid.questions.map((q) => q.id)).toEqual(all.slice(0, MAX_GRID_QUESTIONS));
    const texts = new Map(rows.map((r) => [r.question_id, r.question]));
    const byCell = new Map<string, ReportRow[]>();
    for (const r of rows) {
      const id = `${r.question_id}|${columnKey(r)}`;
      byCell.set(id, [...(byCell.get(id) ?? []), r]);
    }
    expect(folded.grid.questions.flatMap((q) => [...q.cells.values()]).some((c) => c.reasons.length > 1 && c.passed > 0)).toBe(true);
    for (const q of folded.grid.questions) {
      expect(q.text).toBe(texts.get(q.id));
      expect(q.cells.size).toBe(5);
      for (const [key, cell] of q.cells) {
        const mine = byCell.get(`${q.id}|${key}`)!;
        expect(cell).toEqual({ tries: mine.length, passed: mine.filter((r) => r.pass).length, anyOk: mine.some((r) => r.outcome === 'ok'), reasons: [...new Set(mine.flatMap((r) => r.reasons))].slice(0, 5) });
      }
    }
  });
});
