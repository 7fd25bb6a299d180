/**
 * @module gates/junit
 * Gates as JUnit test cases, for the junit.xml of a run (one per gate × group), so a CI system
 * lists each gate as a test and shows a failed one's reason.
 */
import { xmlAttr, xmlText } from '../reports/junit-xml.js';
import { describeGate } from '../figures/grammar.js';
import type { GateResult } from './evaluate.js';

/** `citation_recall delta >= -0.02 [accurate (stream)]`: unique per gate × group. */
export const gateCaseName = (r: GateResult): string =>
  `${r.gate.set === null && r.gate.mode === null ? '' : `${r.gate.text.trim().split(/\s+/).filter((t) => /^(set|mode):/.test(t)).join(' ')} `}${describeGate(r.gate)} [${r.target.label}]`;

/**
 * `<testcase>` elements (indented for a `<testsuite>`), classname `chatbench.gates`; a failed gate
 * has a `<failure type="gate">` whose message is the reason and whose body lists the questions
 * that pulled it down. Empty input → empty string.
 */
export function renderGateTestcases(results: readonly GateResult[]): string {
  return results
    .map((r) => {
      const open = `    <testcase name="${xmlAttr(gateCaseName(r))}" classname="chatbench.gates" time="0"`;
      if (r.passed) return `${open}/>`;
      const body = [r.reason, ...(r.questions.length > 0 ? [`questions: ${r.questions.join(', ')}`] : [])].join('\n');
      return `${open}>\n      <failure type="gate" message="${xmlAttr(r.reason)}">${xmlText(body)}</failure>\n    </testcase>`;
    })
    .join('\n');
}

/** A whole `<testsuite name="gates">` around renderGateTestcases, with its counts. */
export function renderGateTestsuite(results: readonly GateResult[]): string {
  const failures = results.filter((r) => !r.passed).length;
  const cases = renderGateTestcases(results);
  return `  <testsuite name="gates" tests="${results.length}" failures="${failures}" errors="0" skipped="0" time="0">${cases ? `\n${cases}\n  ` : ''}</testsuite>`;
}
