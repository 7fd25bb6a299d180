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
th, td { padding: 5px 10px; border-bottom: 1px solid var(--line); text-align: right; white-space: nowrap; background: #fff; }
th:first-child, td:first-child { text-align: left; }
thead th { border-bottom: 2px solid var(--ink); vertical-align: bottom; white-space: normal; }
td.best { background: var(--best); font-weight: 700; }
/* No width cap: a wide table scrolls in its own box, its header row and first column staying in view. */
.table-wrap { overflow: auto; max-height: 85vh; max-width: 100%; border: 1px solid var(--line); border-radius: 4px; }
.table-wrap table { margin: 0; }
.table-wrap thead th { position: sticky; top: 0; z-index: 2; }
.table-wrap th:first-child, .table-wrap td:first-child { position: sticky; left: 0; z-index: 1; }
.table-wrap thead th:first-child { z-index: 3; }
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
figure.chart { margin: 24px 0; }
figcaption { font-weight: 600; margin-bottom: 6px; }
figure svg { max-width: 100%; height: auto; overflow: visible; }
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
