import { describe, expect, it } from 'vitest';
import { InputError } from '../errors.js';
import type { GateVerdict } from '../figures/gate-verdict.js';
import { parseGatesFile } from './gates-file.js';
import { parseGate } from '../figures/grammar.js';
import { gateJunitCases } from './junit.js';

const problemsOf = (text: string): readonly string[] => {
  try {
    parseGatesFile(text, 'gates.json');
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as InputError).problems;
  }
  throw new Error('expected an InputError');
};

describe('parseGatesFile', () => {
  it('takes strings and objects, both through the one grammar', () => {
    const gates = parseGatesFile(
      JSON.stringify({
        gates: [
          'citation_recall >= 0.8',
          {
            figure: 'ttfp_ms',
            stat: 'p95',
            against: 'ratio',
            op: '<=',
            value: 1.2,
            significant: true,
            set: 'fast',
            mode: 'stream',
          },
          { figure: 'pass_rate', op: '>=', value: 0.9 },
        ],
      }),
      'gates.json',
    );
    expect(gates.map((g) => g.text)).toEqual([
      'citation_recall >= 0.8',
      'set:fast mode:stream ttfp_ms.p95 ratio <= 1.2 significant',
      'pass_rate >= 0.9',
    ]);
    expect(gates[1]).toMatchObject({
      set: 'fast',
      mode: 'stream',
      figure: 'ttfp_ms',
      stat: 'p95',
      against: 'ratio',
      threshold: 1.2,
      significant: true,
    });
  });

  it.each([
    { name: 'not JSON', text: '{gates: []', want: [/^gates\.json: not JSON \(/] },
    {
      name: 'no gates key',
      text: '{}',
      want: ['gates.json: gates: Invalid input: expected array, received undefined'],
    },
    {
      name: 'unknown key',
      text: '{"gates": [], "extra": 1}',
      want: ['gates.json: (top level): Unrecognized key: "extra"'],
    },
    {
      name: 'bad object fields, every one listed',
      text: '{"gates": [{"figure": "pass_rate", "op": "=>", "value": "0.9", "sett": "a"}, 7]}',
      want: [
        'gates.json: gates.0.op: Invalid option: expected one of ">="|"<="|">"|"<"|"=="',
        'gates.json: gates.0.value: Invalid input: expected number, received string',
        'gates.json: gates.0: Unrecognized key: "sett"',
        'gates.json: gates.1: expected a gate string or a gate object',
      ],
    },
    {
      name: 'grammar mistakes, every entry listed with its index',
      text: '{"gates": ["citation_recal >= 0.8", "pass_rate >= 0.9", {"figure": "ttfp_ms", "op": "<=", "value": 2000}]}',
      want: [
        'gates.json: gates.0 "citation_recal >= 0.8": unknown figure "citation_recal" (did you mean citation_recall?)',
        'gates.json: gates.2 "ttfp_ms <= 2000": ttfp_ms needs a statistic: ttfp_ms.p95 (one of p50 p90 p95 p99 p99_9 mean max)',
      ],
    },
  ])('$name', ({ text, want }) => {
    const problems = problemsOf(text);
    expect(problems).toHaveLength(want.length);
    want.forEach((w, i) => (typeof w === 'string' ? expect(problems[i]).toBe(w) : expect(problems[i]).toMatch(w)));
  });
});

describe('gateJunitCases', () => {
  const result = (passed: boolean, text: string): GateVerdict => ({
    gate: parseGate(text),
    target: { set: 'a', mode: 'stream', model_index: null, model_name: null, label: 'a (stream)' },
    value: 0.5,
    baseline: null,
    current: 0.5,
    ci: null,
    significant: null,
    passed,
    reason: `${text} ${passed ? 'passed' : 'failed'} for set a/stream: 0.5 <"&>`,
    questions: passed ? [] : ['q1', 'q2'],
  });

  it('one case per result; a failure carries the reason and the questions', () => {
    expect(gateJunitCases([result(true, 'pass_rate >= 0.1'), result(false, 'set:a pass_rate >= 0.9')])).toEqual([
      { name: 'pass_rate >= 0.1 [a (stream)]', classname: 'chatbench.gates', seconds: 0, outcome: null },
      {
        name: 'set:a pass_rate >= 0.9 [a (stream)]',
        classname: 'chatbench.gates',
        seconds: 0,
        outcome: {
          kind: 'failure',
          type: 'gate',
          message: 'set:a pass_rate >= 0.9 failed for set a/stream: 0.5 <"&>',
          details: 'set:a pass_rate >= 0.9 failed for set a/stream: 0.5 <"&>\nquestions: q1, q2',
        },
      },
    ]);
    expect(gateJunitCases([])).toEqual([]);
  });
});
