import { describe, expect, it } from 'vitest';
import { contentStems, judgeByRules, stem } from './rules.js';

const base = { question: 'How many days of paid time off do employees get?' };

describe("the simulated judge's rules", () => {
  it.each([
    {
      name: 'states every fact',
      answer: 'Every full-time employee receives 25 days of paid time off per calendar year.',
      reference: 'Full-time employees receive 25 days of paid time off per calendar year.',
      score: 1,
      reason: /every key fact/,
    },
    {
      name: 'a different number contradicts',
      answer: 'Employees receive 20 days of paid time off.',
      reference: 'Employees receive 25 days of paid time off.',
      score: 0,
      reason: /says 20 where the reference says 25/,
    },
    {
      name: 'found nothing',
      answer: 'I could not find any information about this in the knowledge base.',
      reference: 'Employees receive 25 days.',
      score: 0,
      reason: /found nothing/,
    },
    {
      name: 'part of the facts',
      answer: 'Employees receive paid time off.',
      reference: 'Employees receive paid time off: 25 days, carried over until March 31.',
      score: 0.44,
      reason: /misses 25, 31, day, carri, …/,
    },
  ])('correctness: $name', ({ answer, reference, score, reason }) => {
    const verdict = judgeByRules({ task: 'correctness', ...base, answer, reference_answer: reference });
    expect(verdict.score).toBe(score);
    expect(verdict.reason).toMatch(reason);
  });

  it('groundedness: the share of claims their cited documents support', () => {
    const documents = [
      {
        number: 1,
        title: 'PTO policy',
        text: 'Every full-time employee receives 25 days of paid time off per calendar year.',
      },
      { number: 2, title: 'Parental leave', text: 'Northwind offers 18 weeks of fully paid parental leave.' },
    ];
    const grounded = judgeByRules({
      task: 'groundedness',
      ...base,
      answer:
        'Every full-time employee receives 25 days of paid time off [1]. Parents get 18 weeks of paid parental leave [2].',
      documents,
    });
    expect(grounded).toMatchObject({ score: 1, reason: 'all 2 claims are supported by the documents they cite' });
    const miscited = judgeByRules({
      task: 'groundedness',
      ...base,
      answer:
        'Every full-time employee receives 25 days of paid time off [2]. Parents get 18 weeks of paid parental leave [2].',
      documents,
    });
    expect(miscited.score).toBe(0.5);
    expect(miscited.reason).toMatch(/^1 of 2 claims unsupported by their documents, e.g. "Every full-time/);
    const noClaim = judgeByRules({
      task: 'groundedness',
      ...base,
      answer: 'I could not find any information about this.',
      documents,
    });
    expect(noClaim).toMatchObject({ score: 1, reason: 'no claim to support' });
    const unmarked = judgeByRules({
      task: 'groundedness',
      ...base,
      answer: 'Northwind offers 18 weeks of fully paid parental leave.',
      documents,
    });
    expect(unmarked.score).toBe(1);
  });

  it.each([
    { answer: 'Full-time employees get 25 days of paid time off.', expected: false, score: 1 },
    { answer: 'I could not find any information about this.', expected: true, score: 1 },
    { answer: 'I could not find any information about this.', expected: false, score: 0 },
    { answer: 'The office is in Lisbon.', expected: false, score: 0 },
  ])('relevance of "$answer" (no answer expected: $expected) → $score', ({ answer, expected, score }) => {
    expect(judgeByRules({ task: 'relevance', ...base, answer, no_answer_expected: expected }).score).toBe(score);
  });

  it.each([
    { rubric: 'Names the "EthicsLine" hotline.', answer: 'Call the EthicsLine any time.', pass: true },
    { rubric: 'Names the "EthicsLine" hotline.', answer: 'Call HR.', pass: false },
    {
      rubric: 'Gives "59 USD" and does not quote the Starter price "29 USD".',
      answer: 'Growth costs 59 USD; Starter 29 USD.',
      pass: false,
    },
    {
      rubric: 'Gives "59 USD" and does not quote the Starter price "29 USD".',
      answer: 'Growth costs 59 USD per user.',
      pass: true,
    },
    { rubric: 'Answers the question in a full sentence.', answer: 'Employees get 25 days off per year.', pass: true },
    { rubric: 'Answers the question in a full sentence.', answer: 'I could not find any information.', pass: false },
  ])('rubric "$rubric" on "$answer" → $pass', ({ rubric, answer, pass }) => {
    const verdict = judgeByRules({ task: 'rubric', ...base, answer, rubric });
    expect([verdict.pass, verdict.score]).toEqual([pass, pass ? 1 : 0]);
  });

  it('stems and content words', () => {
    expect(['receives', 'receive', 'received', 'days', 'carried', 'working', 'class', 'use'].map(stem)).toEqual([
      'receiv',
      'receiv',
      'receiv',
      'day',
      'carri',
      'work',
      'class',
      'use',
    ]);
    expect(contentStems('The employees receive 25 days of PTO.')).toEqual(['employe', 'receiv', 'day', 'pto']);
  });
});
