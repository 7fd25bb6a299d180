/**
 * Runs a documented example (from --help or the README) as a shell would read it, in-process through
 * main(): `VAR=value` prefixes, '…' and "…" quoting, $VAR and ${VAR}, `~/`, a `*` in the last path
 * segment, a trailing `# comment` and `&`. Commands that serve until interrupted (serve, mock-llm, view) are
 * interrupted once they print where they listen. Nothing else of a shell: examples stay simple.
 */
import { readdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { main } from '../../src/cli/main.js';
import { createFakeIo } from './fake-io.js';

export interface ParsedCommand {
  readonly env: Record<string, string>;
  readonly argv: string[];
  readonly background: boolean;
}

/** The words of `line` after quoting and expansion; `vars` are the shell's variables. */
export function parseCommand(line: string, vars: Readonly<Record<string, string>>, cwd: string): ParsedCommand {
  const words: { text: string; glob: boolean }[] = [];
  let text = '';
  let glob = false;
  let started = false;
  let quote: '"' | "'" | null = null;
  const push = () => {
    if (started) words.push({ text, glob });
    text = '';
    glob = false;
    started = false;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote === "'") {
      if (c === "'") quote = null;
      else text += c;
      continue;
    }
    if (c === '$' && /[A-Za-z_{]/.test(line[i + 1] ?? '')) {
      const braced = line[i + 1] === '{';
      const match = (braced ? /^\{([A-Za-z_][A-Za-z0-9_]*)\}/ : /^([A-Za-z_][A-Za-z0-9_]*)/).exec(line.slice(i + 1))!;
      text += vars[match[1]!] ?? '';
      started = true;
      i += match[0].length;
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = null;
      else text += c;
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      started = true;
    } else if (c === ' ' || c === '\t') {
      push();
    } else if (c === '#' && !started) {
      break;
    } else {
      if (c === '~' && !started && line[i + 1] === '/') text += vars.HOME ?? '~';
      else text += c;
      if (c === '*') glob = true;
      started = true;
    }
  }
  push();
  const env: Record<string, string> = {};
  while (words.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0]!.text)) {
    const [name, ...value] = words.shift()!.text.split('=');
    env[name!] = value.join('=');
  }
  const background = words.at(-1)?.text === '&';
  if (background) words.pop();
  const argv = words.flatMap((w) => (w.glob ? expandGlob(w.text, cwd) : [w.text]));
  return { env, argv, background };
}

/** `dir/shard-*` → the matching entries, sorted; the pattern itself when nothing matches (as bash). */
function expandGlob(pattern: string, cwd: string): string[] {
  const dir = dirname(pattern);
  const re = new RegExp(
    `^${basename(pattern)
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  let names: string[];
  try {
    names = readdirSync(resolve(cwd, dir))
      .filter((n) => re.test(n))
      .sort();
  } catch {
    return [pattern];
  }
  return names.length === 0 ? [pattern] : names.map((n) => (dir === '.' ? n : join(dir, n)));
}

/** `\`-continued lines joined into one command line each. */
export function joinContinuations(lines: readonly string[]): string[] {
  const out: string[] = [];
  let current = '';
  for (const line of lines) {
    const trimmed = line.trim();
    if (trimmed.endsWith('\\')) current += `${trimmed.slice(0, -1).trimEnd()} `;
    else {
      out.push(`${current}${trimmed}`);
      current = '';
    }
  }
  if (current !== '') out.push(current.trim());
  return out;
}

export interface ExampleRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly argv: readonly string[];
}

const SERVES = /chatbench simulator listening on|chatbench mock LLM listening on|chatbench viewer: http/;

/** Runs `chatbench ARGS` of an example line (`npx chatbench …` or `chatbench …`). */
export async function runExample(
  line: string,
  options: { env: Record<string, string>; cwd: string },
): Promise<ExampleRun> {
  const parsed = parseCommand(line, options.env, options.cwd);
  const start = parsed.argv[0] === 'npx' ? 2 : 1;
  if (parsed.argv[start - 1] !== 'chatbench') throw new Error(`not a chatbench command: ${line}`);
  const argv = parsed.argv.slice(start);
  const fake = createFakeIo({ env: { ...options.env, ...parsed.env }, cwd: options.cwd });
  const running = main(argv, fake.io);
  if (argv[0] === 'serve' || argv[0] === 'mock-llm' || argv[0] === 'view') {
    // Serves until interrupted: wait for where it listens, then Ctrl-C. The bound (60 s) catches a
    // hang, not a slow machine: 10 s was a speed bound a busy runner could miss.
    for (let i = 0; i < 3000 && !SERVES.test(fake.stdout()); i++) {
      const settled = await Promise.race([
        running.then(() => true),
        new Promise<false>((done) => setTimeout(() => done(false), 20)),
      ]);
      if (settled) break;
    }
    fake.interrupt();
  }
  const code = await running;
  return { code, stdout: fake.stdout(), stderr: fake.stderr(), argv };
}
