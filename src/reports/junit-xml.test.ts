import { describe, expect, it } from 'vitest';
import { fixtureInput, fixtureSummary, hasControlChars, makeRecord, makeScores } from '../../test/fixtures/reports/fixture.js';
import { createReportInputBuilder } from './report-input.js';
import { renderJunitXml, xmlAttr, xmlText } from './junit-xml.js';

const xml = renderJunitXml(fixtureInput());
const count = (pattern: RegExp) => xml.match(pattern)?.length ?? 0;

describe('junit.xml', () => {
  it('has one suite per set × mode and one case per question × set, with the right totals', () => {
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="chatbench" tests="14" failures="3" errors="2"')).toBe(true);
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
    expect(renderJunitXml(recall.finish(fixtureSummary()))).toContain('message="no expected document cited (citation recall 0)"');
  });

  it('escapes <&"\' and replaces characters XML cannot carry', () => {
    expect(xmlAttr(`<a href="x">&'\n\u0001\uD800`)).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&apos;&#10;\uFFFD\uFFFD');
    expect(xmlText('a < b && c > d\u001f\u0000')).toBe('a &lt; b &amp;&amp; c &gt; d\uFFFD\uFFFD');
    expect(xml).toContain('question: Is &lt;b&gt;x&lt;/b&gt; &amp; "y" | \'z\' `ok`? [a](b) *s*\uFFFD\uFFFD end');
    expect(hasControlChars(xml)).toBe(false);
    const hostileSet = createReportInputBuilder();
    hostileSet.add(makeRecord({ question_id: 'q"<&>', set: 'a&b', scores: makeScores({ pass: false, forbidden_phrases: ["it's <bad>"] }) }));
    const out = renderJunitXml(hostileSet.finish(fixtureSummary()));
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
});
