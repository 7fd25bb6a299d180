/**
 * The help a user reads: every option of every command described, durations said to be durations
 * (and the syntax stated in that command's help), the exit codes in every command's help, no line
 * wider than the help (a wrapped example no longer pastes), no example naming a run that does not
 * exist, and shell completion.
 */
import type { Options } from 'yargs';
import yargs from 'yargs';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { DURATION_OPTIONS } from '../../src/cli/help-text.js';
import { main } from '../../src/cli/main.js';
import { recording } from '../../src/cli/options/yargs-layers.js';
import { createFakeIo } from '../helpers/fake-io.js';

async function help(args: string[]): Promise<string> {
  const fake = createFakeIo();
  expect(await main(args, fake.io)).toBe(0);
  return fake.stdout();
}

/** Every option every command declares, as declared (with the shared descriptions filled in). */
async function declarations(): Promise<{ command: string; key: string; option: Options }[]> {
  const out: { command: string; key: string; option: Options }[] = [];
  for (const entry of COMMANDS) {
    const declared = new Map<string, Options>();
    const command = (await entry.load())(createFakeIo().io, () => undefined);
    recording(command.builder, new Map(), { eager: true, declared })(yargs([]));
    for (const [key, option] of declared) out.push({ command: entry.name, key, option });
  }
  return out;
}

describe('--help of every command', () => {
  it('describes every option; a duration option says it takes a duration', async () => {
    const all = await declarations();
    expect(all.length).toBeGreaterThan(100);
    expect(all.filter((d) => !d.option.describe?.trim()).map((d) => `${d.command} --${d.key}`)).toEqual([]);
    const durations = all.filter(
      (d) =>
        DURATION_OPTIONS.has(d.key) ||
        (typeof d.option.default === 'string' && /^\d+(ms|s|m|h)$/.test(d.option.default)),
    );
    expect(durations.length).toBeGreaterThan(12);
    expect(
      durations.filter((d) => !/\bduration\b/.test(d.option.describe ?? '')).map((d) => `${d.command} --${d.key}`),
    ).toEqual([]);
  });

  it.each(COMMANDS.map((c) => c.name))(
    '%s: defaults shown, exit codes, the duration syntax where needed, every line within the width',
    async (name) => {
      const text = await help(name === 'baseline' ? [name, 'save', '--help'] : [name, '--help']);
      expect(text.replace(/\s+/g, ' ')).toContain(
        'Exit codes: 0 ok · 1 a gate failed or an SLO was broken (capacity: no step held its SLOs) · 2 bad input or usage',
      );
      if (/\(a duration\)|duration:target|\bduration\b.*\[/.test(text))
        expect(text).toContain('Durations (every option marked "duration")');
      for (const line of text.split('\n')) expect(line.length, line).toBeLessThanOrEqual(100);
      // A default is shown as yargs shows it, from the declaration (the layering takes it from yargs).
      if (name === 'load')
        expect(text).toMatch(
          /--grace +On Ctrl-C, how long in-flight requests may finish \(a\s+duration\)\s+\[string\] \[default: 10s\]/,
        );
    },
  );

  it('examples paste whole: a comment line, then the command, continued with \\ when long', async () => {
    const text = await help(['load', '--help']);
    const examples = text.slice(text.indexOf('\nExamples:\n'));
    expect(examples).toMatch(
      /\n {2}# Open model: 20 requests per second for a minute against the simulator\n {2}chatbench load --sim --dataset datasets\/sample\.csv --rate 20 --duration 60s\n/,
    );
    // An option and its value stay on one line; the continuation is indented.
    expect(examples).toMatch(/--duration 30s \\\n {4}--slo "ttft_ms\.p95<=3000"/);
  });

  it('compare names no run that does not exist (reports/latest)', async () => {
    expect(await help(['compare', '--help'])).not.toContain('reports/latest');
  });

  it('the root help lists every command, where options come from, the exit codes and the duration syntax', async () => {
    const text = await help(['--help']);
    for (const entry of COMMANDS) expect(text).toMatch(new RegExp(`chatbench ${entry.name}\\b`));
    expect(text).toContain('chatbench completion');
    expect(text).toContain('CHATBENCH_<OPTION>');
    expect(text).toContain('Exit codes:');
    expect(text).toContain('Durations');
  });
});

describe('chatbench completion', () => {
  it('prints a completion script for bash and zsh', async () => {
    const text = await help(['completion']);
    expect(text).toContain('--get-yargs-completions');
    expect(text).toMatch(/complete -o bashdefault -o default -F _chatbench_yargs_completions chatbench|compdef/);
  });

  it("completes commands and a command's options", async () => {
    expect(await help(['--get-yargs-completions', 'chatbench', 'lo'])).toMatch(/^load$/m);
    const options = await help(['--get-yargs-completions', 'chatbench', 'load', '--ra']);
    expect(options).toMatch(/^--rate$/m);
  });
});
