/**
 * @module cli/help-examples
 * The examples of a command's --help, printed so that each can be pasted into a shell as it is: a
 * `# what it does` line, then the command, broken at spaces outside quotes with `\` continuations
 * so that no line is longer than the help's width (yargs' own two-column examples wrap commands
 * mid-way, and a wrapped command no longer runs). test/integration/help-examples-make.test.ts and -read run them.
 */

/** Shell words of `command` with their quotes kept: `--gate "a <= 1"` is two words. */
export function shellWords(command: string): string[] {
  const words: string[] = [];
  let word = '';
  let quote: '"' | "'" | null = null;
  for (const char of command) {
    if (quote !== null) {
      word += char;
      if (char === quote) quote = null;
    } else if (char === '"' || char === "'") {
      word += char;
      quote = char;
    } else if (char === ' ') {
      if (word !== '') words.push(word);
      word = '';
    } else {
      word += char;
    }
  }
  if (word !== '') words.push(word);
  return words;
}

/** `command` in lines of at most `width` characters (a word longer than that stands alone), joined by ` \`. */
export function breakCommand(command: string, width: number, indent = '  '): string[] {
  const lines: string[] = [];
  let line = indent;
  // An option and its value stay on one line: `--slo "ttfp_ms.p95<=2000"`.
  const words = shellWords(command);
  const units: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const next = words[i + 1];
    if (word.startsWith('--') && !word.includes('=') && next !== undefined && !next.startsWith('-')) {
      units.push(`${word} ${next}`);
      i++;
    } else {
      units.push(word);
    }
  }
  for (const word of units) {
    const next = line.trim() === '' ? `${line}${word}` : `${line} ${word}`;
    // Room for the " \" that continues the line.
    if (line.trim() !== '' && next.length + 2 > width) {
      lines.push(`${line} \\`);
      line = `${indent}  ${word}`;
    } else {
      line = next;
    }
  }
  lines.push(line);
  return lines;
}

/** `text` as `# ` comment lines of at most `width` characters. */
function commentLines(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '  #';
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    if (line !== '  #' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = '  #';
    }
    line += ` ${word}`;
  }
  lines.push(line);
  return lines;
}

/** The "Examples:" section: `# description`, then the command as it runs. `$0` is chatbench. */
export function formatExamples(examples: readonly (readonly [string, string])[], width: number): string {
  if (examples.length === 0) return '';
  const blocks = examples.map(([command, description]) =>
    [
      ...(description === '' ? [] : commentLines(description, width)),
      ...breakCommand(command.replaceAll('$0', 'chatbench'), width),
    ].join('\n'),
  );
  return `Examples:\n${blocks.join('\n\n')}`;
}
