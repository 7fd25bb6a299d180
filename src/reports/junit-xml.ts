/**
 * @module reports/junit-xml
 * junit.xml: so a CI system shows each question as a test. One testsuite per set × mode, one
 * testcase per question (× repeat), `failure` for an answer that did not pass, `error` for a
 * request that did not come back ok, `skipped` for a conversation turn that was not sent (an
 * earlier turn failed: that turn's error is the one to read). Every text is escaped for XML 1.0, including the characters
 * XML cannot carry at all.
 */
import { naturalCompare, replaceUnprintable } from './format.js';
import type { JunitCase, JunitCases, JunitSuite } from './junit-cases.js';
import type { ReportInput } from './report-input.js';

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
 * `<question_id> [r<repeat>]` (repeat counted from 0, as in results.jsonl). `extra`: more
 * testcases (the gates of a comparison) put just before the closing tag.
 */
export function renderJunitXml(input: Pick<ReportInput, 'summary' | 'junit'>, extra?: string): string {
  return [...junitXmlChunks(input, extra)].join('');
}

/** junit.xml in pieces of about 64 KB, for a file written as it is rendered (a million testcases is a large text). */
export function* junitXmlChunks(input: Pick<ReportInput, 'summary' | 'junit'>, extra?: string): Generator<string> {
  const cases = input.junit;
  let buffer = '';
  const line = function* (text: string): Generator<string> {
    buffer += `${text}\n`;
    if (buffer.length >= 65_536) {
      yield buffer;
      buffer = '';
    }
  };
  const all = new Uint32Array(cases.length);
  for (let i = 0; i < all.length; i += 1) all[i] = i;
  const totals = tally(cases, all);
  const ordered = cases.suites().sort(suiteOrder(input.summary.run.sets));
  yield* line('<?xml version="1.0" encoding="UTF-8"?>');
  yield* line(`<testsuites name="chatbench" tests="${cases.length}" failures="${totals.failures}" errors="${totals.errors}" skipped="${totals.skipped}" time="${seconds(totals.ms)}">`);
  for (const suite of ordered) {
    const classname = `chatbench.${suite.set}.${suite.mode}`;
    const t = tally(cases, suite.cases);
    yield* line(`  <testsuite name="${xmlAttr(`${suite.set} (${suite.mode})`)}" tests="${suite.cases.length}" failures="${t.failures}" errors="${t.errors}" skipped="${t.skipped}" time="${seconds(t.ms)}">`);
    for (const i of suite.cases) yield* line(testcase(cases.at(i), classname, cases.repeats));
    yield* line('  </testsuite>');
  }
  if (extra) buffer += extra;
  yield* line('</testsuites>');
  if (buffer !== '') yield buffer;
}

/** Sums in the order given (the run's order for the whole, the suite's for a suite), as the file always has. */
function tally(cases: JunitCases, order: Uint32Array) {
  let failures = 0;
  let errors = 0;
  let skipped = 0;
  let ms = 0;
  for (const i of order) {
    const row = cases.at(i);
    if (row.outcome === 'skipped') skipped += 1;
    else if (row.outcome !== 'ok') errors += 1;
    else if (!row.pass) failures += 1;
    ms += row.total_ms ?? 0;
  }
  return { failures, errors, skipped, ms };
}

function testcase(row: JunitCase, classname: string, repeats: boolean): string {
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
  return (x: JunitSuite, y: JunitSuite) => rank(x.set) - rank(y.set) || naturalCompare(x.set, y.set) || (x.mode === y.mode ? 0 : x.mode === 'stream' ? -1 : 1);
}
