/**
 * @module reports/html/style
 * The page's inline stylesheet. System fonts only: the page must open offline and fetch nothing.
 */
export const REPORT_CSS = `
:root { color-scheme: light; --ink: #1b1f24; --muted: #57606a; --line: #d0d7de; --best: #e7f1fa; }
* { box-sizing: border-box; }
body { margin: 0; padding: 24px 28px 48px; color: var(--ink); background: #fff;
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
h1 { font-size: 26px; margin: 0 0 4px; }
h2 { font-size: 19px; margin: 36px 0 10px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
p.figures { margin: 0; font-size: 16px; }
p.provenance, p.note, .legend { color: var(--muted); font-size: 13px; }
p, dl.read { max-width: 110ch; }
table { border-collapse: separate; border-spacing: 0; font-variant-numeric: tabular-nums; margin: 8px 0; }
th, td { padding: 5px 10px; border-bottom: 1px solid var(--line); text-align: right; background: #fff; overflow-wrap: break-word; }
th:first-child, td:first-child { text-align: left; }
thead th { border-bottom: 2px solid var(--ink); vertical-align: bottom; overflow-wrap: anywhere; }
td.best { background: var(--best); font-weight: 700; }
.nb { white-space: nowrap; }
/* No scroll box: every row and column is on the page. Cells wrap at spaces when the table is wider
   than the page, and a table of many columns stacks on a narrow page (stackBelow). The header row
   stays in view while the page scrolls. */
.table-wrap { max-width: 100%; }
/* The last resort of the other reports' tables (load, compare), which neither wrap to fit nor stack: a sideways scroll of their own, never of the page. */
.table-wrap:not(:has(table.stackable)) { overflow-x: auto; }
.table-wrap table { margin: 0; }
.table-wrap thead th { position: sticky; top: 0; z-index: 1; }
.mark { vertical-align: -2px; }
.mark { vertical-align: -2px; }
.mark.pass { color: #0072B2; }
.mark.fail { color: #b34700; }
td.few { color: #767676; font-style: italic; }
section.verdict { margin: 8px 0 16px; padding: 8px 14px; border-left: 6px solid #0072B2; background: #f3f8fc; }
section.verdict p { margin: 0; font-size: 16px; }
section.verdict ul { margin: 6px 0 0; }
section.verdict-failed, section.verdict-run-failed { border-left-color: #b3261e; background: #fdf1f0; }
section.verdict-interrupted { border-left-color: #D55E00; background: #fff4ec; }
p.banner { margin: 0 0 12px; padding: 10px 14px; border: 2px solid #D55E00; background: #fff4ec; font-weight: 700; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 600px), 1fr)); gap: 0 32px; align-items: start; }
figure.chart { margin: 24px 0; min-width: 0; }
figcaption { font-weight: 600; margin-bottom: 6px; }
/* A chart fills its grid cell (up to 1.3 times its drawn size, so its text stays readable); the pass grid keeps its cells' size. */
figure svg[viewBox] { display: block; width: 100%; max-width: min(100%, 940px); height: auto; }
figure svg.natural { width: auto; max-width: 100%; }
ol.worst { padding-left: 0; list-style: none; }
li.worst-entry { margin: 0 0 24px; max-width: 110ch; overflow-wrap: anywhere; }
li.worst-entry h3 { font-size: 16px; margin: 0 0 4px; }
li.worst-entry p { margin: 4px 0; }
blockquote.answer { margin: 6px 0; padding: 4px 12px; border-left: 4px solid var(--line); white-space: pre-wrap; }
svg text { font-size: 12px; fill: var(--ink); }
.axis line { stroke: #6e7781; }
.axis line.grid { stroke: #eaeef2; }
.axis-label { fill: var(--muted); }
.ci-bar { stroke: #1b1f24; stroke-width: 1.5; fill: none; }
.glyph { font-size: 13px; font-weight: 700; pointer-events: none; }
.glyph.on-dark { fill: #fff; }
.grid-cell:hover rect, .outcome-bar:hover, .score-bar:hover { stroke: #1b1f24; stroke-width: 1.5; }
.cdf-line:hover { stroke-width: 4; }
.legend { list-style: none; display: flex; flex-wrap: wrap; gap: 4px 16px; padding: 0; margin: 6px 0 0; }
.legend-item { display: inline-flex; align-items: center; gap: 6px; }
dl.read { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; }
dl.read dt { font-weight: 600; }
dl.read dd { margin: 0; }
footer { margin-top: 40px; color: var(--muted); font-size: 12px; }
`;

/**
 * CSS that stacks the tables over the report's columns (class "stackable") on a page too narrow
 * for them even with wrapped cells: each row becomes a block, each cell a line "column: value".
 * The width is an estimate of the narrowest the table can wrap to: the page's margins, the row
 * label and about 110 px per column. No script: the page must open with nothing to run.
 */
export function stackBelow(tableColumns: number): string {
  const width = 56 + 170 + 110 * Math.max(0, tableColumns - 1);
  return `
@media (max-width: ${width}px) {
  table.stackable, table.stackable tbody, table.stackable tr, table.stackable th, table.stackable td { display: block; }
  /* Each cell names its column instead (data-label); a block layout drops the table's semantics anyway. */
  table.stackable thead { display: none; }
  table.stackable tr { padding: 4px 0; border-bottom: 1px solid var(--line); }
  table.stackable th[scope="row"], table.stackable td { border: 0; padding: 1px 10px; }
  table.stackable td { display: flex; justify-content: space-between; gap: 16px; }
  table.stackable td::before { content: attr(data-label); font-weight: 400; color: var(--muted); text-align: left; }
}
`;
}
