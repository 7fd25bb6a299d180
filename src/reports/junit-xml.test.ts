import { describe, expect, it } from 'vitest';
import { fixtureInput, fixtureSummary, hasControlChars, makeRecord, makeScores } from '../../test/fixtures/reports/fixture.js';
import { createReportInputBuilder } from './report-input.js';
import { renderJunitXml, xmlAttr, xmlText, type JunitCase } from './junit-xml.js';

const xml = renderJunitXml(fixtureInput(), { gates: null, questions: 'failures' });
const count = (pattern: RegExp) => xml.match(pattern)?.length ?? 0;

describe('junit.xml', () => {
  it('has one suite per set × mode and one case per question × set, with the right totals', () => {
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="chatbench" tests="14" failures="3" errors="2" time="')).toBe(true);
    expect(count(/<testsuite /g)).toBe(4);
    expect(count(/<testcase /g)).toBe(14);
    expect(count(/<failure /g)).toBe(3);
    expect(count(/<error /g)).toBe(2);
    expect(xml).toContain('<testsuite name="fast (stream)" tests="4" failures="1" errors="1" skipped="0" time="2.130">');
    expect(xml).toContain('<testsuite name="duo (stream)" tests="2" failures="0" errors="1"');
  });

  it('names cases by question, classes by set and mode, and times them in seconds', () => {
    expect(xml).toContain('<testcase name="q1" classname="chatbench.fast.full" time="0.900"/>');
    // natural order: q10 after q3
    const fast = xml.slice(xml.indexOf('fast (stream)'), xml.indexOf('fast (full)'));
    expect([...fast.matchAll(/testcase name="([^"]+)"/g)].map((m) => m[1])).toEqual(['q1', 'q2', 'q3', 'q10']);
  });

  it('says why in the failure message', () => {
    expect(xml).toContain('<failure message="missing phrases: &quot;refund &lt;policy&gt;&quot;" type="fail">');
    expect(xml).toContain('<failure message="2 invalid citation(s)" type="fail">');
    expect(xml).toContain('<failure message="cited documents on a question that expects no answer" type="fail">');
    expect(xml).toContain('<error message="outcome http_error 503 E_BUSY" type="http_error">');
    expect(xml).toContain('<error message="outcome stream_error E_MODEL; [large] outcome stream_error E_MODEL" type="stream_error">');
    const recall = createReportInputBuilder();
    recall.add(makeRecord({ question_id: 'q', set: 's', scores: makeScores({ pass: false, citation_recall: 0 }) }));
    expect(renderJunitXml(recall.finish(fixtureSummary()), { gates: null, questions: 'failures' })).toContain('message="no expected document cited (citation recall 0)"');
  });

  it('escapes <&"\' and replaces characters XML cannot carry', () => {
    expect(xmlAttr(`<a href="x">&'\n\u0001\uD800`)).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&apos;&#10;\uFFFD\uFFFD');
    expect(xmlText('a < b && c > d\u001f\u0000')).toBe('a &lt; b &amp;&amp; c &gt; d\uFFFD\uFFFD');
    expect(xml).toContain('question: Is &lt;b&gt;x&lt;/b&gt; &amp; "y" | \'z\' `ok`? [a](b) *s*\uFFFD\uFFFD end');
    expect(hasControlChars(xml)).toBe(false);
    const hostileSet = createReportInputBuilder();
    hostileSet.add(makeRecord({ question_id: 'q"<&>', set: 'a&b', scores: makeScores({ pass: false, forbidden_phrases: ["it's <bad>"] }) }));
    const out = renderJunitXml(hostileSet.finish(fixtureSummary()), { gates: null, questions: 'failures' });
    expect(out).toContain('<testcase name="q&quot;&lt;&amp;&gt;" classname="chatbench.a&amp;b.stream"');
    expect(out).toContain('message="forbidden phrases present: &quot;it&apos;s &lt;bad&gt;&quot;"');
  });

  it('names each repeat when there are repeats', () => {
    const builder = createReportInputBuilder();
    for (const repeat of [1, 0]) builder.add(makeRecord({ question_id: 'q1', set: 's', repeat, total_ms: 1234.5 }));
    const out = renderJunitXml(builder.finish(fixtureSummary()));
    expect([...out.matchAll(/testcase name="([^"]+)"/g)].map((m) => m[1])).toEqual(['q1 [r0]', 'q1 [r1]']);
    expect(out).toContain('time="1.234"');
    expect(out).toContain('tests="2" failures="0" errors="0"');
  });

  const gates: JunitCase[] = [
    { name: 'error_rate <= 0.1 [fast (stream)]', classname: 'chatbench.gates', seconds: 0, outcome: null },
    { name: 'pass_rate >= 0.9 [fast (stream)]', classname: 'chatbench.gates', seconds: 0, outcome: { kind: 'failure', type: 'gate', message: 'pass_rate 0.5 < 0.9', details: 'pass_rate 0.5 < 0.9\nquestions: q2' } },
  ];
  const attrs = (text: string, element: string) => [...text.matchAll(new RegExp(`<${element} [^>]*>`, 'g'))].map((m) => m[0]);
  const num = (tag: string, name: string) => Number(new RegExp(`${name}="([0-9.]+)"`).exec(tag)?.[1]);

  it('by default a question that did not pass is skipped with its reason: a run whose gates pass has no failure', () => {
    const out = renderJunitXml(fixtureInput(), { gates: [gates[0]!], questions: 'skipped' });
    expect(out).toMatch(/<testsuites name="chatbench" tests="15" failures="0" errors="0" time="/);
    expect(out).toContain('<skipped message="did not pass: missing phrases: &quot;refund &lt;policy&gt;&quot;" type="fail">');
    expect(out).toContain('<skipped message="request failed: outcome http_error 503 E_BUSY" type="http_error">');
    expect(count(/<failure /g)).toBe(3); // the 'failures' rendering above, for contrast
    expect(out).not.toMatch(/<failure |<error /);
    expect(renderJunitXml(fixtureInput())).toBe(renderJunitXml(fixtureInput(), { gates: null, questions: 'skipped' }));
  });

  it('puts the gates in a suite of their own, first, and the totals add up over every suite', () => {
    for (const questions of ['skipped', 'failures', 'off'] as const) {
      const out = renderJunitXml(fixtureInput(), { gates, questions });
      const [top, ...suites] = [...attrs(out, 'testsuites'), ...attrs(out, 'testsuite')];
      expect(suites[0]).toMatch(/^<testsuite name="gates" tests="2" failures="1" errors="0" skipped="0"/);
      for (const key of ['tests', 'failures', 'errors']) expect(num(top!, key)).toBe(suites.reduce((sum, s) => sum + num(s, key), 0));
      expect(num(top!, 'failures')).toBe(questions === 'failures' ? 4 : 1);
      // Every testcase inside a testsuite: nothing between a </testsuite> and the next <testsuite or </testsuites>.
      expect(out).not.toMatch(/<\/testsuite>\s*<testcase/);
      expect(attrs(out, 'testcase')).toHaveLength(2 + (questions === 'off' ? 0 : 14));
    }
  });
});
