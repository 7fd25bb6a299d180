/**
 * @module gates/junit
 * Gates as JUnit test cases, for the `gates` suite of a run's junit.xml (one per gate × group), so
 * a CI system lists each gate as a test and shows a failed one's reason.
 */
import type { JunitCase } from '../reports/junit-xml.js';
import { describeGate } from '../figures/grammar.js';
import type { GateVerdict } from '../figures/gate-verdict.js';

/** `citation_recall delta >= -0.02 [accurate (stream)]`: unique per gate × group. */
export const gateCaseName = (r: GateVerdict): string =>
  `${
    r.gate.set === null && r.gate.mode === null
      ? ''
      : `${r.gate.text
          .trim()
          .split(/\s+/)
          .filter((t) => /^(set|mode):/.test(t))
          .join(' ')} `
  }${describeGate(r.gate)} [${r.target.label}]`;

/**
 * One case per gate result, classname `chatbench.gates`; a failed gate is a `failure` of type
 * `gate` whose message is the reason and whose body lists the questions that pulled it down.
 */
export function gateJunitCases(results: readonly GateVerdict[]): JunitCase[] {
  return results.map((r) => ({
    name: gateCaseName(r),
    classname: 'chatbench.gates',
    seconds: 0,
    outcome: r.passed
      ? null
      : {
          kind: 'failure',
          type: 'gate',
          message: r.reason,
          details: [r.reason, ...(r.questions.length > 0 ? [`questions: ${r.questions.join(', ')}`] : [])].join('\n'),
        },
  }));
}
