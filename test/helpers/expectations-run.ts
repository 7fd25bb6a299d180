/**
 * A run for the viewer's "Expected documents" tests: two sets answering `pto` (no expectation;
 * the answers cite the PTO policy and are given the parental-leave policy too) and `leave` (it
 * expects the parental-leave policy), its dataset q.csv beside it, ids of the simulator's corpus
 * (so `validate --sim` checks them).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../../src/cli/main.js';
import { makeRecord } from '../../src/metrics/test-records.js';
import { createFakeIo } from './fake-io.js';

const doc = (document_id: string, title: string) => ({
  document_id,
  title,
  link: `https://wiki.example/${document_id}`,
  blurb: '',
  highlights: [],
});

/** A run of two sets: pto (no expectation) cites the PTO policy and is given the leave policy too; leave expects its own. */
export function writeRun(root: string): void {
  const dir = join(root, 'run');
  mkdirSync(dir);
  writeFileSync(
    join(root, 'q.csv'),
    [
      'id,question,expected_documents',
      'pto,How many days of paid time off do full-time employees receive per calendar year?,',
      'leave,How many weeks of fully paid parental leave does Northwind offer?,hr-parental-leave',
      '',
    ].join('\n'),
  );
  const top = [doc('hr-pto-policy', 'Paid time off policy'), doc('hr-parental-leave', 'Parental leave')];
  const records = ['a', 'b'].flatMap((set) =>
    ['pto', 'leave'].map((q) =>
      makeRecord({
        question_id: q,
        key: `${q}|${set}|stream|0`,
        set,
        expected_document_ids: q === 'leave' ? ['hr-parental-leave'] : [],
        cited_document_ids: [q === 'pto' ? 'hr-pto-policy' : 'hr-parental-leave'],
        top_document_ids: top.map((d) => d.document_id),
        top_documents: top,
      }),
    ),
  );
  writeFileSync(join(dir, 'results.jsonl'), `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
}

/** writeRun, then `chatbench draft-expectations run --dataset q.csv` (in process) in `root`. */
export async function draftedRun(root: string): Promise<void> {
  writeRun(root);
  const fake = createFakeIo({ cwd: root });
  const code = await main(['draft-expectations', 'run', '--dataset', 'q.csv'], fake.io);
  if (code !== 0) throw new Error(`draft-expectations: exit ${code}: ${fake.stderr()}`);
}
