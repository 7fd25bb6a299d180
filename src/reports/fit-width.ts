/**
 * @module reports/fit-width
 * Text for a terminal of a given width: a line longer than the width breaks at spaces, its
 * continuation indented two more than the line itself, so a note or a comparison reads whole in a
 * 100-column terminal instead of wrapping mid-word. A word longer than the width (a path) stays
 * whole. Widths count code points, as the terminal table does.
 */

const length = (text: string): number => [...text].length;

/** `text` (lines separated by "\n") with every line no wider than `width` where spaces allow. */
export function wrapLines(text: string, width: number): string {
  return text.split('\n').flatMap((line) => wrapLine(line, width)).join('\n');
}

function wrapLine(line: string, width: number): string[] {
  if (length(line) <= width) return [line];
  const indent = /^ */.exec(line)![0];
  const more = `${indent}  `;
  const words = line.slice(indent.length).split(' ');
  const lines: string[] = [];
  let current = indent;
  for (const word of words) {
    const lead = lines.length === 0 ? indent : more;
    if (current !== lead && length(current) + 1 + length(word) > width) {
      lines.push(current);
      current = more + word;
    } else {
      current = current === lead ? lead + word : `${current} ${word}`;
    }
  }
  lines.push(current);
  return lines;
}

/**
 * The width to fit text to: the terminal's (`columns` of a TTY), else $COLUMNS when it is a whole
 * number; undefined (no limit) for a pipe or a file without COLUMNS, so a saved output keeps whole lines.
 */
export function outputWidth(stream: { isTTY?: boolean; columns?: number }, env: Readonly<Record<string, string | undefined>>): number | undefined {
  if (stream.isTTY && stream.columns !== undefined && stream.columns > 0) return stream.columns;
  const columns = Number(env.COLUMNS);
  return Number.isInteger(columns) && columns > 0 ? columns : undefined;
}
