/**
 * Issue 12, outputs other programs open: results.csv cells from the dataset or the service that a
 * spreadsheet would run as formulas (`=`, `+`, `-`, `@`, tab, CR first) are written with a leading
 * `'` (OWASP); a document id with newlines cannot break out of its code span in report.md; escape
 * codes in a CSV header or in what the service sends never reach the terminal raw.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { line, packet, startHostileServer, streamedAnswer } from '../helpers/hostile-server.js';
import { runCli, scratch, writeCsv, writeJson } from './helpers.js';

const FORMULA = /^[=+\-@\t\r]/;
/** ESC or BEL anywhere: a raw escape sequence reached the output. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const RAW_ESCAPE = /[\u0007\u001b]/;
const EVIL_DOC = "=cmd|' /C calc'!A0";
const BREAKOUT = 'doc-1\n<script>alert(1)</script>\n# Fake heading';
// ESC ] 0 ; title BEL, a colour, a clear screen and an OSC 52 clipboard write.
const ESCAPES = '\x1b]0;pwned\x07\x1b[31m\x1b[2J\x1b]52;c;ZXZpbA==\x07';

describe('what a spreadsheet, a markdown viewer or a terminal will read', () => {
  it('results.csv: no cell begins a formula; report.md: a document id stays in its code span', async () => {
    const server = await startHostileServer(() => ({
      body: streamedAnswer({
        deltas: ['Answer [[1]](https://x) [[2]](https://y)'],
        documents: [EVIL_DOC, BREAKOUT],
        citations: [
          [1, EVIL_DOC],
          [2, BREAKOUT],
        ],
      }),
    }));
    const dir = scratch();
    const header = 'id,question,expected_documents,must_contain,expect_no_answer,category,note';
    const dataset = writeCsv(
      dir,
      [
        ['=HYPERLINK("http://evil.example","click")', '+SUM(1,2) is what?', 'doc-x', '', 'false', '@cmd', '-2+3'],
        ['q2', '\tTabbed question?', 'doc-x', '', 'false', '\rcr', '=1+1'],
      ],
      'questions.csv',
      header,
    );
    const out = join(dir, 'run');
    const run = await runCli([
      'eval',
      '--base-url',
      server.baseUrl,
      '--token',
      'tok-1234',
      '--dataset',
      dataset,
      '--out',
      out,
    ]);
    expect(run.code).toBe(0);
    const rows = parse(readFileSync(join(out, 'results.csv'), 'utf8')) as string[][];
    const cells = rows.flat();
    expect(cells.filter((c) => FORMULA.test(c))).toEqual([]);
    expect(cells).toContain(`'${EVIL_DOC}|${BREAKOUT}`); // cited_document_ids, kept whole behind its quote
    expect(cells).toContain(`'=HYPERLINK("http://evil.example","click")`);
    expect(cells).toContain("'-2+3");
    const md = readFileSync(join(out, 'report.md'), 'utf8').split('\n');
    expect(md.filter((l) => l.startsWith('<script>') || l.startsWith('# Fake'))).toEqual([]);
    expect(md.some((l) => l.includes('`doc-1\\n<script>alert(1)</script>\\n# Fake heading`'))).toBe(true);
  });

  it('escape codes in a CSV header are never echoed raw', async () => {
    const dir = scratch();
    const dataset = join(dir, 'escapes.csv');
    writeFileSync(dataset, `id,${ESCAPES}Question\nq1,Hello?\n`);
    const run = await runCli(['validate', '--dataset', dataset]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('\\x1b]0;pwned\\x07'); // shown, harmless
    expect(run.stderr).not.toMatch(RAW_ESCAPE);
  });

  it('escape codes in what the service sends (model names, in the summary table) are never printed raw', async () => {
    const server = await startHostileServer(() => ({
      body: [
        line({
          user_message_id: 1,
          responses: [
            { message_id: 2, model_name: `gpt${ESCAPES}` },
            { message_id: 3, model_name: 'b' },
          ],
        }),
        packet({ type: 'message_delta', content: `hi${ESCAPES}` }, 0),
        packet({ type: 'stop', stop_reason: null }, 0),
        packet({ type: 'message_delta', content: 'hi' }, 1),
        packet({ type: 'stop', stop_reason: null }, 1),
      ],
    }));
    const dir = scratch();
    const dataset = writeCsv(dir, [['q1', 'Hello?', '', '', 'false', 'x']]);
    const models = writeJson(dir, 'models.json', {
      sets: [{ name: 'duo', llm_overrides: [{ model_version: 'gpt-4o-mini' }, { model_version: 'gpt-4o' }] }],
    });
    const run = await runCli([
      'eval',
      '--base-url',
      server.baseUrl,
      '--token',
      'tok-1234',
      '--dataset',
      dataset,
      '--sets-file',
      models,
      '--out',
      join(dir, 'run'),
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('gpt\\x1b]0;pwned');
    expect(run.stdout + run.stderr).not.toMatch(RAW_ESCAPE);
  });
});
