/**
 * @module reports/junit-xml
 * junit.xml: so a CI system shows each question as a test. One testsuite per set × mode, one
 * testcase per question (× repeat), `failure` for an answer that did not pass, `error` for a
 * request that did not come back ok, `skipped` for a conversation turn that was not sent (an
 * earlier turn failed: that turn's error is the one to read). Every text is escaped for XML 1.0, including the characters
 * XML cannot carry at all.
 */
import { naturalCompare, replaceUnprintable } from './format.js';
import type { ReportInput, ReportRow } from './report-input.js';

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;', '\n': '&#10;', '\r': '&#13;', '\t': '&#9;' };

/** Text for an XML attribute value: markup and quotes escaped; line breaks and tabs as character references so they survive attribute normalisation. */
export function xmlAttr(text: string): string {
  return replaceUnprintable(text).replace(/[&<>"'\n\r\t]/g, (c) => XML_ESCAPES[c]!);
}

/** Text for XML element content. */
export function xmlText(text: string): string {
  return replaceUnprintable(text).replace(/[&<>]/g, (c) => XML_ESCAPES[c]!);
}

const seconds = (ms: number | null) => ((ms ?? 0) / 1000).toFixed(3);

/**
 * Renders junit.xml from the request-level rows (the per-model rows of a multi-model request are
 * folded into its reasons). Suites follow the run's set order, stream before full; cases follow
 * natural question-id order, then repeat. When any request has repeat > 0, every case is named
 * `<question_id> [r<repeat>]` (repeat counted from 0, as in results.jsonl).
 */
export function renderJunitXml(input: Pick<ReportInput, 'summary' | 'rows'>): string {
  const rows = input.rows.filter((r) => r.model_index === null);
  const repeats = rows.some((r) => r.repeat > 0);
  const suites = new Map<string, ReportRow[]>();
  for (const row of rows) {
    const id = `${row.set}\u0000${row.mode}`;
    const list = suites.get(id);
    if (list) list.push(row);
    else suites.set(id, [row]);
  }
  const ordered = [...suites.values()].sort(suiteOrder(input.summary.run.sets));
  const body = ordered.map((cases) => suite(cases, repeats));
  const totals = tally(rows);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="chatbench" tests="${rows.length}" failures="${totals.failures}" errors="${totals.errors}" skipped="${totals.skipped}" time="${seconds(totals.ms)}">`,
    ...body,
    '</testsuites>',
    '',
  ].join('\n');
}

function tally(rows: readonly ReportRow[]) {
  let failures = 0;
  let errors = 0;
  let skipped = 0;
  let ms = 0;
  for (const row of rows) {
    if (row.outcome === 'skipped') skipped += 1;
    else if (row.outcome !== 'ok') errors += 1;
    else if (!row.pass) failures += 1;
    ms += row.total_ms ?? 0;
  }
  return { failures, errors, skipped, ms };
}

function suite(cases: ReportRow[], repeats: boolean): string {
  const first = cases[0]!;
  const classname = `chatbench.${first.set}.${first.mode}`;
  const sorted = [...cases].sort((a, b) => naturalCompare(a.question_id, b.question_id) || a.repeat - b.repeat);
  const totals = tally(sorted);
  return [
    `  <testsuite name="${xmlAttr(`${first.set} (${first.mode})`)}" tests="${sorted.length}" failures="${totals.failures}" errors="${totals.errors}" skipped="${totals.skipped}" time="${seconds(totals.ms)}">`,
    ...sorted.map((row) => testcase(row, classname, repeats)),
    '  </testsuite>',
  ].join('\n');
}

function testcase(row: ReportRow, classname: string, repeats: boolean): string {
  const name = repeats ? `${row.question_id} [r${row.repeat}]` : row.question_id;
  const open = `    <testcase name="${xmlAttr(name)}" classname="${xmlAttr(classname)}" time="${seconds(row.total_ms)}"`;
  if (row.outcome === 'ok' && row.pass) return `${open}/>`;
  if (row.outcome === 'skipped') return [`${open}>`, `      <skipped message="${xmlAttr(row.reasons.join('; ') || 'not sent')}"/>`, '    </testcase>'].join('\n');
  const element = row.outcome === 'ok' ? 'failure' : 'error';
  const type = row.outcome === 'ok' ? 'fail' : row.outcome;
  const message = row.reasons.join('; ') || 'did not pass';
  const details = [`question: ${row.question}`, ...row.reasons.map((r) => `- ${r}`)].join('\n');
  return [
    `${open}>`,
    `      <${element} message="${xmlAttr(message)}" type="${xmlAttr(type)}">${xmlText(details)}</${element}>`,
    '    </testcase>',
  ].join('\n');
}

/** Suites in the run's set order (unknown sets last, by name), stream before full. */
function suiteOrder(sets: readonly string[]) {
  const rank = (set: string) => (sets.includes(set) ? sets.indexOf(set) : sets.length);
  return (a: ReportRow[], b: ReportRow[]) => {
    const x = a[0]!;
    const y = b[0]!;
    return rank(x.set) - rank(y.set) || naturalCompare(x.set, y.set) || (x.mode === y.mode ? 0 : x.mode === 'stream' ? -1 : 1);
  };
}
