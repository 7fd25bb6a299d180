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
import type { ReportInput, ReportRow } from './report-input.js';

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

interface Suite {
  readonly name: string;
  readonly cases: readonly JunitCase[];
}

/**
 * Renders junit.xml from the request-level rows (the per-model rows of a multi-model request are
 * folded into its reasons) and the gates' cases. Question suites follow the run's set order, stream
 * before full; cases follow natural question-id order, then repeat. When any request has
 * repeat > 0, every case is named `<question_id> [r<repeat>]` (repeat counted from 0, as in
 * results.jsonl). Without options: no gates suite, questions as `skipped`.
 */
export function renderJunitXml(input: Pick<ReportInput, 'summary' | 'rows'>, options: JunitOptions = { gates: null, questions: DEFAULT_JUNIT_QUESTIONS }): string {
  const suites: Suite[] = [];
  if (options.gates !== null) suites.push({ name: 'gates', cases: options.gates });
  if (options.questions !== 'off') suites.push(...questionSuites(input, options.questions));
  const totals = tally(suites.flatMap((s) => s.cases));
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    // <testsuites> has no `skipped` attribute in the schema; each <testsuite> has one.
    `<testsuites name="chatbench" tests="${totals.tests}" failures="${totals.failures}" errors="${totals.errors}" time="${seconds(totals.seconds)}">`,
    ...suites.map(renderSuite),
    '</testsuites>',
    '',
  ].join('\n');
}

function questionSuites(input: Pick<ReportInput, 'summary' | 'rows'>, questions: Exclude<JunitQuestions, 'off'>): Suite[] {
  const rows = input.rows.filter((r) => r.model_index === null);
  const repeats = rows.some((r) => r.repeat > 0);
  const groups = new Map<string, ReportRow[]>();
  for (const row of rows) {
    const id = `${row.set}\u0000${row.mode}`;
    const list = groups.get(id);
    if (list) list.push(row);
    else groups.set(id, [row]);
  }
  return [...groups.values()].sort(suiteOrder(input.summary.run.sets)).map((cases) => {
    const first = cases[0]!;
    const classname = `chatbench.${first.set}.${first.mode}`;
    const sorted = [...cases].sort((a, b) => naturalCompare(a.question_id, b.question_id) || a.repeat - b.repeat);
    return { name: `${first.set} (${first.mode})`, cases: sorted.map((row) => questionCase(row, classname, repeats, questions)) };
  });
}

function tally(cases: readonly JunitCase[]) {
  const count = (kind: string) => cases.filter((c) => c.outcome?.kind === kind).length;
  return { tests: cases.length, failures: count('failure'), errors: count('error'), skipped: count('skipped'), seconds: cases.reduce((sum, c) => sum + c.seconds, 0) };
}

function renderSuite(suite: Suite): string {
  const t = tally(suite.cases);
  const open = `  <testsuite name="${xmlAttr(suite.name)}" tests="${t.tests}" failures="${t.failures}" errors="${t.errors}" skipped="${t.skipped}" time="${seconds(t.seconds)}"`;
  if (suite.cases.length === 0) return `${open}/>`;
  return [`${open}>`, ...suite.cases.map(renderCase), '  </testsuite>'].join('\n');
}

function renderCase(c: JunitCase): string {
  const open = `    <testcase name="${xmlAttr(c.name)}" classname="${xmlAttr(c.classname)}" time="${seconds(c.seconds)}"`;
  if (c.outcome === null) return `${open}/>`;
  const { kind, type, message, details } = c.outcome;
  const body = details === '' ? '/>' : `>${xmlText(details)}</${kind}>`;
  return [`${open}>`, `      <${kind} message="${xmlAttr(message)}" type="${xmlAttr(type)}"${body}`, '    </testcase>'].join('\n');
}

function questionCase(row: ReportRow, classname: string, repeats: boolean, questions: Exclude<JunitQuestions, 'off'>): JunitCase {
  const name = repeats ? `${row.question_id} [r${row.repeat}]` : row.question_id;
  const base = { name, classname, seconds: (row.total_ms ?? 0) / 1000 };
  if (row.outcome === 'ok' && row.pass) return { ...base, outcome: null };
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
  return (a: ReportRow[], b: ReportRow[]) => {
    const x = a[0]!;
    const y = b[0]!;
    return rank(x.set) - rank(y.set) || naturalCompare(x.set, y.set) || (x.mode === y.mode ? 0 : x.mode === 'stream' ? -1 : 1);
  };
}
