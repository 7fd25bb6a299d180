/**
 * Issue 22: one verdict, one story. An eval of two sets on the simulator opens its terminal
 * output, report.md, report.html, junit.xml, verdict.json and --json with the same verdict, the
 * pairwise comparison of its sets among it; the exit code is the verdict's.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { openViewRuns } from '../../src/app/shared/view-runs.js';
import { SummarySchema } from '../../src/records/summary.js';
import { comparisonRows, reportColumns } from '../../src/reports/comparison.js';
import { VerdictSchema } from '../../src/verdict/index.js';
import { bestOf } from '../../src/viewer/ui/best.js';
import { createFakeIo } from '../helpers/fake-io.js';
import { startSim, TOKENS } from '../helpers/start-sim.js';

const dataset = join(import.meta.dirname, '../../datasets/sample.csv');

/**
 * The first single-turn questions of the sample: enough that the fast set's better answer F1 is
 * significant by itself. With 12, it was only when the latency figures were significant too
 * (Benjamini–Hochberg's threshold grows with the count of significant figures), which a busy
 * machine's timings are not.
 */
const QUESTIONS = 24;
function smallDataset(dir: string): string {
  const path = join(dir, 'questions.csv');
  const [header, ...rows] = readFileSync(dataset, 'utf8').trimEnd().split('\n');
  writeFileSync(
    path,
    [header, ...rows.filter((row) => !row.endsWith(',internal_search')).slice(0, QUESTIONS)].join('\n') + '\n',
  );
  return path;
}

async function evalTwoSets(extra: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'chatbench-verdict-'));
  const out = join(dir, 'run');
  const sim = await startSim();
  const fake = createFakeIo();
  const code = await main(
    [
      'eval',
      '--base-url',
      sim.baseUrl,
      '--token',
      TOKENS.demo,
      '--dataset',
      smallDataset(dir),
      '--mode',
      'full',
      '--set',
      'accurate=openai:gpt-4o@0',
      '--set',
      'fast=openai:gpt-4o-mini@0',
      '--concurrency',
      '12',
      '--out',
      out,
      '--json',
      ...extra,
    ],
    fake.io,
  );
  await sim.close();
  return { code, out, json: JSON.parse(fake.stdout()) as { exit_code: number; verdict: string; decision: unknown } };
}

describe('one verdict in every output (issue 22)', () => {
  it.each([
    { name: 'passing gate', gate: 'pass_rate >= 0', status: 'passed', code: 0 },
    { name: 'failing gate', gate: 'pass_rate >= 1.01', status: 'failed', code: 1 },
  ])(
    '$name: the exit code, --json, verdict.json, report.md, report.html and junit.xml agree',
    { timeout: 30_000 },
    async ({ gate, status, code }) => {
      const { code: exit, out, json } = await evalTwoSets(['--gate', gate]);
      const verdict = VerdictSchema.parse(json.decision);
      expect([exit, json.exit_code, verdict.exit_code, verdict.status]).toEqual([code, code, code, status]);
      expect(json.verdict).toBe(verdict.headline);
      expect(VerdictSchema.parse(JSON.parse(readFileSync(join(out, 'verdict.json'), 'utf8')))).toEqual(verdict);
      // The pairwise comparison of the two sets, on the same questions.
      expect(verdict.comparisons).toHaveLength(1);
      expect(verdict.comparisons[0]).toMatch(
        /^fast vs accurate: pass rate [+-±][\d.]+ pts .*n = \d+ questions.*· (no clear winner|best: (fast|accurate))/,
      );
      const md = readFileSync(join(out, 'report.md'), 'utf8');
      expect(md).toContain(`**${verdict.headline}** (exit ${code})`);
      expect(md).toContain(`- ${verdict.comparisons[0]}`);
      const html = readFileSync(join(out, 'report.html'), 'utf8');
      expect(html).toContain(`verdict-${status}`);
      const junit = readFileSync(join(out, 'junit.xml'), 'utf8');
      expect(/<failure[^>]*pass_rate &gt;= 1\.01/.test(junit)).toBe(status === 'failed');
    },
  );

  it('--reference names a set of the run, else exit 2 before anything is sent', async () => {
    const { code } = await evalTwoSets(['--reference', 'nope']).catch(() => ({ code: -1 }));
    expect(code).toBe(2);
  });

  it(
    'the best marks agree in the terminal, report.md, report.html, the viewer and verdict.json; `report DIR` keeps --reference',
    { timeout: 30_000 },
    async () => {
      const { code, out, json } = await evalTwoSets(['--reference', 'fast', '--repeat', '2']);
      expect(code).toBe(0);
      const verdict = VerdictSchema.parse(json.decision);
      expect(verdict.comparisons[0]).toMatch(/^accurate vs fast: /);
      // The rows as the verdict's marks make them (reports/comparison); not vacuous: the simulator's
      // fast set answers significantly closer to the reference answers (answer F1), and some rows differ without a mark.
      const summary = SummarySchema.parse(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')));
      const rows = comparisonRows(reportColumns(summary), verdict.best);
      const marked = rows.filter((r) => r.best.some(Boolean));
      expect(marked.map((r) => r.label)).toContain('answer F1');
      expect(rows.some((r) => r.figure !== null && r.values[0] !== r.values[1] && !r.best.some(Boolean))).toBe(true);
      // `report DIR` again: the same verdict (the reference read back from the manifest) and its terminal table.
      const fake = createFakeIo();
      expect(await main(['report', out], fake.io)).toBe(0);
      expect(VerdictSchema.parse(JSON.parse(readFileSync(join(out, 'verdict.json'), 'utf8')))).toEqual(verdict);
      expect(fake.stderr()).toContain(
        'chatbench report: model: the service does not confirm which model answered single-model requests; asked: accurate=openai:gpt-4o, fast=openai:gpt-4o-mini',
      );
      const terminal = fake.stdout().split('\n');
      const start = terminal.findIndex((l) => l.startsWith('─')) + 1;
      const md = readFileSync(join(out, 'report.md'), 'utf8').split('\n');
      const mdStart = md.indexOf('## Comparison') + 4;
      const html = readFileSync(join(out, 'report.html'), 'utf8');
      const htmlRows = html
        .slice(html.indexOf('<h2>Comparison</h2>'))
        .split('</tbody>')[0]!
        .split('<tr>')
        .filter((r) => r.startsWith('<th scope="row">'));
      const view = await (await openViewRuns({ runs: [out], cwd: out, reviewer: 't', version: 't' })).data();
      expect(start).toBeGreaterThan(0);
      expect(htmlRows).toHaveLength(rows.length);
      rows.forEach((row, i) => {
        const terminalBest = terminal[start + i]!.split(/\s{2,}/)
          .slice(1)
          .map((c) => c.trimEnd().endsWith(' *'));
        const mdBest = md[mdStart + i]!.split(' | ')
          .slice(1)
          .map((c) => c.startsWith('**'));
        const htmlBest = [...htmlRows[i]!.matchAll(/<td( class="[^"]*")?( data-label="[^"]*")?>/g)].map(
          (m) => m[1] === ' class="best"',
        );
        expect({ row: row.label, terminalBest, mdBest, htmlBest }).toEqual({
          row: row.label,
          terminalBest: row.best,
          mdBest: row.best,
          htmlBest: row.best,
        });
        const index = row.figure === null ? -1 : view.figures.findIndex((f) => f.name === row.figure);
        if (index >= 0) {
          const viewBest = bestOf(
            view.figures[index]!,
            view.columns,
            view.columns.map((c) => c.figures[index] ?? null),
            view.runs,
          );
          expect({ row: row.label, viewBest }).toEqual({ row: row.label, viewBest: row.best });
        }
      });
    },
  );
});
