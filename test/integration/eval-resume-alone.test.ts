/**
 * Issue 27 item 8: an interrupted eval prints the command that continues it, and that command —
 * `chatbench eval --resume DIR` with nothing else but the token — finishes the run, its options read
 * from the manifest; a flag beside it that changes the run is still refused. The project
 * instructions the run replaced are announced, their previous text is kept in the manifest from the
 * first start (not read again on resume: by then the project holds the run's own), and
 * `--restore-project` puts it back.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { createFakeIo } from '../helpers/fake-io.js';
import { startSim, TOKENS } from '../helpers/start-sim.js';

const lineCount = (file: string) => {
  try {
    return readFileSync(file, 'utf8').split('\n').filter(Boolean).length;
  } catch {
    return 0;
  }
};

describe('eval --resume DIR alone', () => {
  it('prints the resume command after Ctrl-C; that command alone completes the run and --restore-project puts the first-read instructions back', async () => {
    const sim = await startSim({ config: { chat: { time_scale: 0.02 } } });
    const cwd = mkdtempSync(join(tmpdir(), 'chatbench-resume-'));
    const rows = Array.from(
      { length: 5 },
      (_, i) => `q${i},How many days of paid time off do employees get (${i})?,hr-pto-policy`,
    );
    writeFileSync(
      join(cwd, 'sets.json'),
      JSON.stringify({
        sets: [{ name: 'default' }],
        defaults: { project: { id: 1, instructions: 'Answer in one paragraph.' } },
      }),
    );
    writeFileSync(join(cwd, 'questions.csv'), `id,question,expected_documents\n${rows.join('\n')}\n`);
    const first = createFakeIo({ cwd });
    let polls = 0;
    const poller = setInterval(() => {
      if (lineCount(join(cwd, 'run', 'results.jsonl')) >= 1 || ++polls > 200) {
        clearInterval(poller);
        first.interrupt();
      }
    }, 20);
    const args = [
      'eval',
      '--base-url',
      sim.baseUrl,
      '--token',
      TOKENS.demo,
      '--dataset',
      'questions.csv',
      '--sets-file',
      'sets.json',
      '--concurrency',
      '1',
      '--grace',
      '10s',
      '--out',
      'run',
    ];
    const code = await main(args, first.io);
    clearInterval(poller);
    expect(code).toBe(130);
    const line = first
      .stderr()
      .split('\n')
      .find((l) => l.includes('to continue the run:'));
    expect(line).toBe(
      'chatbench eval: to continue the run: chatbench eval --resume run (give the token again (--token or CHATBENCH_TOKEN): the manifest never records it)',
    );
    expect(first.stderr()).toContain(
      "chatbench eval: project 1's instructions replaced by the sets file's 24 characters; the previous 48 characters kept in manifest.json (project.previous_instructions); left in place after the run (--restore-project puts them back)\n",
    );
    const instructions = async () =>
      (await (
        await fetch(`${sim.baseUrl}/user/projects/1/instructions`, {
          headers: { authorization: `Bearer ${TOKENS.demo}` },
        })
      ).json()) as unknown;
    expect(await instructions()).toEqual({ instructions: 'Answer in one paragraph.' });
    const done = lineCount(join(cwd, 'run', 'results.jsonl'));
    expect(done).toBeLessThan(5);

    // A flag beside --resume that changes what is sent is refused, as before.
    const changed = createFakeIo({ cwd, env: { CHATBENCH_TOKEN: TOKENS.demo } });
    expect(await main(['eval', '--resume', 'run', '--repeat', '2'], changed.io)).toBe(2);
    expect(changed.stderr()).toContain('--resume run: --repeat was 1, now 2');

    const second = createFakeIo({ cwd, env: { CHATBENCH_TOKEN: TOKENS.demo } });
    const resumed = await main(['eval', '--resume', 'run', '--restore-project'], second.io);
    expect(resumed).toBe(0);
    expect(second.stderr()).toContain(`resuming ${join(cwd, 'run')}: ${done} requests recorded`);
    expect(lineCount(join(cwd, 'run', 'results.jsonl'))).toBe(5);
    const manifest = JSON.parse(readFileSync(join(cwd, 'run', 'manifest.json'), 'utf8')) as {
      resumes: unknown[];
      project: { id: number; previous_instructions: string; restored_at: string | null };
    };
    expect(manifest.resumes).toHaveLength(1);
    expect(manifest.project).toMatchObject({
      id: 1,
      previous_instructions: 'Answer in a friendly tone and cite the handbook.',
    });
    expect(manifest.project.restored_at).toMatch(/^\d{4}-/);
    expect(await instructions()).toEqual({ instructions: 'Answer in a friendly tone and cite the handbook.' });
  });
});
