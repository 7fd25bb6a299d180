/**
 * junit.xml against the JUnit schema CI reporters read (test/fixtures/junit/junit-10.xsd, the
 * Jenkins xUnit plugin's), with `xmllint --schema`: every shape chatbench writes (questions as
 * skipped, failures or off; with and without a gates suite; hostile names; repeats).
 * Skipped, saying why, where xmllint is absent (Debian libxml2-utils; `.ci/run` installs it).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createReportInputBuilder } from '../../src/reports/report-input.js';
import { renderJunitXml, JUNIT_QUESTION_MODES, type JunitCase } from '../../src/reports/junit-xml.js';
import { fixtureInput, fixtureSummary, makeRecord, makeScores } from '../fixtures/reports/fixture.js';

const SCHEMA = join(import.meta.dirname, '../fixtures/junit/junit-10.xsd');
const hasXmllint = spawnSync('xmllint', ['--version']).status === 0;
if (!hasXmllint) console.warn('junit-schema: skipped, xmllint is absent (apt-get install libxml2-utils)');

/** xmllint's verdict on one document: '' when valid, else its complaint. */
function schemaProblems(xml: string, dir: string): string {
  const file = join(dir, `junit-${Math.random().toString(36).slice(2)}.xml`);
  writeFileSync(file, xml);
  const result = spawnSync('xmllint', ['--noout', '--schema', SCHEMA, file], { encoding: 'utf8' });
  return result.status === 0 ? '' : result.stderr;
}

const gates: JunitCase[] = [
  { name: 'error_rate <= 0.1 [fast (stream)]', classname: 'chatbench.gates', seconds: 0, outcome: null },
  {
    name: 'judge_error_rate <= 0.1 [fast (stream)]',
    classname: 'chatbench.gates',
    seconds: 0,
    outcome: {
      kind: 'failure',
      type: 'gate',
      message: 'judge_error_rate 1 > 0.1 <&">',
      details: 'judge_error_rate 1 > 0.1\nquestions: q1',
    },
  },
];

describe.skipIf(!hasXmllint)('junit.xml against junit-10.xsd', () => {
  const dir = mkdtempSync(join(tmpdir(), 'chatbench-junit-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(JUNIT_QUESTION_MODES)('questions %s, with and without gates, is valid', (questions) => {
    for (const withGates of [gates, [], null]) {
      expect(schemaProblems(renderJunitXml(fixtureInput(), { gates: withGates, questions }), dir)).toBe('');
    }
  });

  it('hostile names and repeats are valid', () => {
    const builder = createReportInputBuilder();
    builder.add(
      makeRecord({
        question_id: 'q"<&>\u0001',
        set: 'a&b',
        repeat: 1,
        scores: makeScores({ pass: false, forbidden_phrases: ["it's <bad>"] }),
      }),
    );
    builder.add(makeRecord({ question_id: 'q2', set: 'a&b', repeat: 0 }));
    const input = builder.finish(fixtureSummary());
    for (const questions of JUNIT_QUESTION_MODES)
      expect(schemaProblems(renderJunitXml(input, { gates, questions }), dir)).toBe('');
  });

  it('the schema is really checked: a testcase outside a testsuite is refused', () => {
    const bad =
      '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="x" skipped="0"><testcase name="a"/></testsuites>\n';
    expect(schemaProblems(bad, dir)).toMatch(/fails to validate/);
  });
});
