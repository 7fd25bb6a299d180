/**
 * @module reports/junit-xml
 * junit.xml: so a CI system shows each gate and each question as a test. The file is valid against
 * the JUnit schema CI reporters read (test/fixtures/junit/junit-10.xsd): every testcase sits in a
 * testsuite, and the totals of `<testsuites>` are the sums of its suites'.
 *
 * Suites: `gates` first (one case per gate × group; a failed gate is a `failure`), then one per
 * set × mode with a case per question (× repeat). The gates decide whether the run passed, so by
 * default a question that did not pass, or whose request failed, is a `skipped` case carrying the
 * reason (visible, never red): a run whose gates pass has `failures="0" errors="0"`.
 * `--junit-questions failures` makes them `failure` (did not pass) and `error` (the request failed)
 * instead; `off` leaves the question suites out. A conversation turn that was not sent (an earlier
 * turn failed) is always `skipped`. Every text is escaped for XML 1.0, including the characters XML
 * cannot carry at all.
 */
import { naturalCompare, replaceUnprintable } from './format.js';
import type { JunitCase as JunitRow, JunitSuite } from './junit-cases.js';
import type { ReportInput } from './report-input.js';

/** How per-question outcomes appear in junit.xml (`--junit-questions`). */
export const JUNIT_QUESTION_MODES = ['skipped', 'failures', 'off'] as const;
export type JunitQuestions = (typeof JUNIT_QUESTION_MODES)[number];
/** Per-question outcomes never turn a CI reporter red unless asked: the gates decide the run. */
export const DEFAULT_JUNIT_QUESTIONS: JunitQuestions = 'skipped';

/** One testcase as the renderer takes it: a gate (gates/junit) or anything else outside the question suites. */
export interface JunitCase {
  readonly name: string;
  readonly classname: string;
  readonly seconds: number;
  /** null: the case passed. */
  readonly outcome: null | { readonly kind: 'failure' | 'error' | 'skipped'; readonly type: string; readonly message: string; readonly details: string };
}

export interface JunitOptions {
  /** The gates' cases; null: no gate was checked (no `gates` suite). */
  readonly gates: readonly JunitCase[] | null;
  readonly questions: JunitQuestions;
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;', '\n': '&#10;', '\r': '&#13;', '\t': '&#9;' };

/** Text for an XML attribute value: markup and quotes escaped; line breaks and tabs as character references so they survive attribute normalisation. */
export function xmlAttr(text: string): string {
  return replaceUnprintable(text).replace(/[&<>"'\n\r\t]/g, (c) => XML_ESCAPES[c]!);
}

/** Text for XML element content. */
export function xmlText(text: string): string {
  return replaceUnprintable(text).replace(/[&<>]/g, (c) => XML_ESCAPES[c]!);
}

const seconds = (s: number) => s.toFixed(3);

/**
 * Renders junit.xml from the request-level rows (the per-model rows of a multi-model request are
 * folded into its reasons, reports/junit-cases) and the gates' cases. Question suites follow the
 * run's set order, stream before full; cases follow natural question-id order, then repeat. When
 * any request has repeat > 0, every case is named `<question_id> [r<repeat>]` (repeat counted from
 * 0, as in results.jsonl). Without options: no gates suite, questions as `skipped`.
 */
export function renderJunitXml(input: Pick<ReportInput, 'summary' | 'junit'>, options: JunitOptions = { gates: null, questions: DEFAULT_JUNIT_QUESTIONS }): string {
  return [...junitXmlChunks(input, options)].join('');
}

/**
 * junit.xml in pieces of about 64 KB, for a file written as it is rendered (a million testcases is a
 * large text): the totals are counted first over the cases' columns, then each case is rendered as
 * it is written.
 */
export function* junitXmlChunks(input: Pick<ReportInput, 'summary' | 'junit'>, options: JunitOptions = { gates: null, questions: DEFAULT_JUNIT_QUESTIONS }): Generator<string> {
  const cases = input.junit;
  const questions = options.questions;
  const suites = questions === 'off' ? [] : cases.suites().sort(suiteOrder(input.summary.run.sets));
  const gates = options.gates;
  const suiteTallies = suites.map((suite) => {
    const t = emptyTally();
    for (const i of suite.cases) {
      const row = cases.at(i);
      count(t, questions === 'off' ? null : questionOutcome(row, questions), (row.total_ms ?? 0) / 1000);
    }
    return t;
  });
  const gateTally = emptyTally();
  for (const c of gates ?? []) count(gateTally, c.outcome?.kind ?? null, c.seconds);
  const totals = [gateTally, ...suiteTallies].reduce((sum, t) => ({
    tests: sum.tests + t.tests, failures: sum.failures + t.failures, errors: sum.errors + t.errors, skipped: sum.skipped + t.skipped, seconds: sum.seconds + t.seconds,
  }), emptyTally());
  let buffer = '';
  const line = function* (text: string): Generator<string> {
    buffer += `${text}\n`;
    if (buffer.length >= 65_536) {
      yield buffer;
      buffer = '';
    }
  };
  yield* line('<?xml version="1.0" encoding="UTF-8"?>');
  // <testsuites> has no `skipped` attribute in the schema; each <testsuite> has one.
  yield* line(`<testsuites name="chatbench" tests="${totals.tests}" failures="${totals.failures}" errors="${totals.errors}" time="${seconds(totals.seconds)}">`);
  if (gates !== null) {
    yield* line(suiteOpen('gates', gateTally));
    for (const c of gates) yield* line(renderCase(c));
    if (gates.length > 0) yield* line('  </testsuite>');
  }
  if (questions !== 'off') {
    for (const [k, suite] of suites.entries()) {
      const classname = `chatbench.${suite.set}.${suite.mode}`;
      yield* line(suiteOpen(`${suite.set} (${suite.mode})`, suiteTallies[k]!));
      for (const i of suite.cases) yield* line(renderCase(questionCase(cases.at(i), classname, cases.repeats, questions)));
      if (suite.cases.length > 0) yield* line('  </testsuite>');
    }
  }
  yield* line('</testsuites>');
  if (buffer !== '') yield buffer;
}

interface Tally {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
  seconds: number;
}

const emptyTally = (): Tally => ({ tests: 0, failures: 0, errors: 0, skipped: 0, seconds: 0 });

function count(t: Tally, kind: 'failure' | 'error' | 'skipped' | null, secs: number): void {
  t.tests += 1;
  if (kind === 'failure') t.failures += 1;
  else if (kind === 'error') t.errors += 1;
  else if (kind === 'skipped') t.skipped += 1;
  t.seconds += secs;
}

/** The kind of a question's case, as questionCase renders it (counted before any case is rendered). */
function questionOutcome(row: JunitRow, questions: Exclude<JunitQuestions, 'off'>): 'failure' | 'error' | 'skipped' | null {
  if (row.outcome === 'ok' && row.pass) return row.checked ? null : 'skipped';
  if (row.outcome === 'skipped' || questions === 'skipped') return 'skipped';
  return row.outcome === 'ok' ? 'failure' : 'error';
}

function suiteOpen(name: string, t: Tally): string {
  const open = `  <testsuite name="${xmlAttr(name)}" tests="${t.tests}" failures="${t.failures}" errors="${t.errors}" skipped="${t.skipped}" time="${seconds(t.seconds)}"`;
  return t.tests === 0 ? `${open}/>` : `${open}>`;
}

function renderCase(c: JunitCase): string {
  const open = `    <testcase name="${xmlAttr(c.name)}" classname="${xmlAttr(c.classname)}" time="${seconds(c.seconds)}"`;
  if (c.outcome === null) return `${open}/>`;
  const { kind, type, message, details } = c.outcome;
  const body = details === '' ? '/>' : `>${xmlText(details)}</${kind}>`;
  return [`${open}>`, `      <${kind} message="${xmlAttr(message)}" type="${xmlAttr(type)}"${body}`, '    </testcase>'].join('\n');
}

/** A question that expects nothing passes whatever it is answered: its case is skipped, saying so (never a green pass). */
const NOT_CHECKED_MESSAGE = 'not checked: the question expects nothing (no expected_documents, phrase, pattern, expect_no_answer or tool)';

function questionCase(row: JunitRow, classname: string, repeats: boolean, questions: Exclude<JunitQuestions, 'off'>): JunitCase {
  const name = repeats ? `${row.question_id} [r${row.repeat}]` : row.question_id;
  const base = { name, classname, seconds: (row.total_ms ?? 0) / 1000 };
  if (row.outcome === 'ok' && row.pass)
    return row.checked ? { ...base, outcome: null } : { ...base, outcome: { kind: 'skipped', type: 'not_checked', message: NOT_CHECKED_MESSAGE, details: '' } };
  if (row.outcome === 'skipped') return { ...base, outcome: { kind: 'skipped', type: 'skipped', message: row.reasons.join('; ') || 'not sent', details: '' } };
  const passFailed = row.outcome === 'ok';
  const type = passFailed ? 'fail' : row.outcome;
  const message = row.reasons.join('; ') || 'did not pass';
  const details = [`question: ${row.question}`, ...row.reasons.map((r) => `- ${r}`)].join('\n');
  if (questions === 'skipped') return { ...base, outcome: { kind: 'skipped', type, message: `${passFailed ? 'did not pass' : 'request failed'}: ${message}`, details } };
  return { ...base, outcome: { kind: passFailed ? 'failure' : 'error', type, message, details } };
}

/** Suites in the run's set order (unknown sets last, by name), stream before full. */
function suiteOrder(sets: readonly string[]) {
  const rank = (set: string) => (sets.includes(set) ? sets.indexOf(set) : sets.length);
  return (x: JunitSuite, y: JunitSuite) => rank(x.set) - rank(y.set) || naturalCompare(x.set, y.set) || (x.mode === y.mode ? 0 : x.mode === 'stream' ? -1 : 1);
}
