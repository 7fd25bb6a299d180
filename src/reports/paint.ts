/**
 * @module reports/paint
 * How a terminal renderer marks text that matters (a verdict, a figure that breaks its objective, a
 * warning). The renderers stay pure and colour-blind: the CLI hands them a Paint that adds colour
 * codes on a terminal, or `PLAIN`, which adds nothing (files, pipes, NO_COLOR).
 */
export interface Paint {
  readonly enabled: boolean;
  good(text: string): string;
  bad(text: string): string;
  warn(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
}

export const PLAIN: Paint = { enabled: false, good: String, bad: String, warn: String, dim: String, bold: String };
