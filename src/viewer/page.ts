/**
 * @module viewer/page
 * The viewer's HTML: the page `chatbench view` serves (script and style from /assets), and
 * viewer.html, the same app in one file with the run's data embedded, which opens offline from a
 * file URL. Both carry a Content-Security-Policy that lets the page fetch nothing but its own
 * server (served) or nothing at all (viewer.html: only its own inline script and style, by hash).
 */
import { createHash } from 'node:crypto';
import { esc } from '../reports/html/svg.js';
import type { ViewerBundle } from './assets.js';
import type { ViewData, ViewDetail } from './view-data.js';

/** The element ids the app reads its embedded data from (viewer.html). */
export const DATA_ELEMENT = 'chatbench-view-data';
export const DETAILS_ELEMENT = 'chatbench-view-details';

export const SERVED_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'";
/** The served page's policy as an HTTP header also forbids framing (a meta element cannot). */
export const SERVED_CSP_HEADER = `${SERVED_CSP}; frame-ancestors 'none'`;

const head = (title: string, csp: string, style: string) =>
  [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    // No favicon to fetch.
    '<link rel="icon" href="data:,">',
    `<title>${esc(title)}</title>`,
    style,
    '</head>',
  ].join('\n');

/** The page `chatbench view` serves at / (and `--dashboard`, with its own app: `app` names its assets). */
export function renderServedPage(options: { title: string; app?: 'viewer' | 'dashboard' }): string {
  const app = options.app ?? 'viewer';
  const noscript =
    app === 'viewer'
      ? 'The chatbench viewer needs JavaScript; report.html and report.md show the same figures without it.'
      : "The dashboard needs JavaScript; the terminal shows the run's progress without it.";
  return [
    head(options.title, SERVED_CSP, `<link rel="stylesheet" href="/assets/${app}.css">`),
    '<body>',
    `<div id="app"><p class="loading">${app === 'viewer' ? 'Loading the runs…' : "Waiting for the run's first second…"}</p></div>`,
    `<noscript>${noscript}</noscript>`,
    `<script src="/assets/${app}.js"></script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** JSON that can sit inside a <script> element: no `<` (so no `</script>`), no line separators. */
export const embedJson = (value: unknown): string =>
  // One pass, not one per character: a 20,000-record viewer's data is tens of MB of text.
  JSON.stringify(value).replace(/[<\u2028\u2029]/g, (c) => EMBED_ESCAPES[c] ?? c);

const EMBED_ESCAPES: Readonly<Record<string, string>> = {
  '<': '\\u003c',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * viewer.html: the app, its style and the data in one file. Deterministic: the same data gives the
 * same bytes (`chatbench report` rebuilds it identically).
 */
export function renderViewerFile(options: {
  title: string;
  bundle: ViewerBundle;
  data: ViewData;
  details: Readonly<Record<string, ViewDetail>>;
}): string {
  return [...viewerFileChunks(options)].join('');
}

/**
 * viewer.html as the pieces renderViewerFile joins, for writing one after the other: the embedded
 * data is the file's bulk, and joining it with the rest would copy it whole once more. Each
 * embedded document is made as it is reached, so the data's text (7 MB at 20,000 questions) is
 * written and garbage before the details' text is made.
 */
export function* viewerFileChunks(options: Parameters<typeof renderViewerFile>[0]): Generator<string> {
  // Script text may not contain its own end tag; nothing else in it needs escaping.
  const js = options.bundle.js.replace(/<\/script/gi, '<\\/script');
  const css = options.bundle.css.replace(/<\/style/gi, '<\\/style');
  const csp = `default-src 'none'; script-src ${sha256(js)}; style-src ${sha256(css)}; img-src data:; base-uri 'none'; form-action 'none'`;
  const embedded = (id: string, value: unknown) => () => [
    `<script type="application/json" id="${id}">`,
    embedJson(value),
    '</script>',
  ];
  const parts: (string | (() => string[]))[] = [
    head(options.title, csp, `<style>${css}</style>`),
    '<body>',
    '<div id="app"><p class="loading">Loading…</p></div>',
    '<noscript>The chatbench viewer needs JavaScript; report.html and report.md beside this file show the same figures without it.</noscript>',
    embedded(DATA_ELEMENT, options.data),
    embedded(DETAILS_ELEMENT, options.details),
    `<script>${js}</script>`,
    '</body>',
    '</html>',
    '',
  ];
  for (const [at, part] of parts.entries()) {
    if (at > 0) yield '\n';
    if (typeof part === 'string') yield part;
    else yield* part();
  }
}
