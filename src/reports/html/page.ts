/**
 * @module reports/html/page
 * The shell of every HTML report (evaluation, load, capacity, comparison): one self-contained page
 * that opens offline. The Content-Security-Policy forbids every fetch, so a report can never reach
 * the network, even if a future change forgot an external URL.
 */
import { REPORT_CSS } from './style.js';
import { esc } from './svg.js';

export const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

export interface PageParts {
  readonly title: string;
  /** Markup of <main>, in order. */
  readonly main: readonly string[];
  /** Plain text; escaped here. */
  readonly footer: string;
  /** CSS added after the shared report styles. */
  readonly css?: string;
}

export function renderPage(parts: PageParts): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${CSP}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${esc(parts.title)}</title>`,
    `<style>${REPORT_CSS}${parts.css ?? ''}</style>`,
    '</head>',
    '<body>',
    '<main>',
    ...parts.main,
    '</main>',
    `<footer>${esc(parts.footer)}</footer>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
