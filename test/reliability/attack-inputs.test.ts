/**
 * Issue 23, bounded inputs: a 260 KB "billion laughs" YAML config is refused with exit 2 naming the
 * file, before anything is sent and without expanding it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { fullAnswer, startHostileServer } from '../helpers/hostile-server.js';
import { runCli, scratch, STACK_LINE, writeCsv } from './helpers.js';

it('a 260 KB "billion laughs" config: exit 2 naming the file and line, nothing sent', async () => {
  const server = await startHostileServer(() => ({
    headers: { 'content-type': 'application/json' },
    body: fullAnswer({ answer: 'Fine.' }),
  }));
  const dir = scratch();
  const lines = ['l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
  for (let i = 1; i <= 9; i++)
    lines.push(`l${i}: &l${i} [${Array.from({ length: 2_900 }, () => `*l${i - 1}`).join(', ')}]`);
  const config = join(dir, 'laughs.yaml');
  writeFileSync(config, `${lines.join('\n')}\n`.slice(0, 260 * 1024));
  const dataset = writeCsv(dir, [['q1', 'Question?', '', '', 'false', 'x']]);
  const run = await runCli([
    'eval',
    '--config',
    config,
    '--base-url',
    server.baseUrl,
    '--token',
    'tok-1234',
    '--dataset',
    dataset,
    '--mode',
    'full',
    '--out',
    join(dir, 'run'),
  ]);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain(`${config}:1: YAML anchors and aliases`);
  expect(run.stderr).not.toMatch(STACK_LINE);
  expect(server.requests).toHaveLength(0);
});
