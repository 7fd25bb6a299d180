/**
 * @module reports
 * Every report chatbench writes, by file name (k6's outputs registry). Most render a finished
 * ReportInput; results.csv streams from the records instead, so it never needs the run in memory.
 */
import type { ReportInput } from './report-input.js';
import { renderReportHtml } from './html/report-html.js';
import { renderJunitXml } from './junit-xml.js';
import { renderReportMd } from './report-md.js';
import { createCsvSink, type CsvOptions } from './results-csv.js';
import type { RecordSink } from './sink.js';
import { renderSummaryJson } from './summary-json.js';

/** A report made from the finished ReportInput: pure, string out. */
export interface InputRenderer {
  readonly from: 'input';
  render(input: ReportInput): string;
}

/** A report made while records stream past: the app writes each chunk as it comes. */
export interface RecordsRenderer {
  readonly from: 'records';
  createSink(write: (chunk: string) => void, options?: CsvOptions): RecordSink;
}

export type ReportRenderer = InputRenderer | RecordsRenderer;

/** File name → renderer. The app writes each into the run directory under that name. */
export const REPORT_RENDERERS = {
  'summary.json': { from: 'input', render: renderSummaryJson },
  'results.csv': { from: 'records', createSink: createCsvSink },
  'report.md': { from: 'input', render: renderReportMd },
  'junit.xml': { from: 'input', render: renderJunitXml },
  'report.html': { from: 'input', render: renderReportHtml },
} as const satisfies Record<string, ReportRenderer>;

export type ReportFileName = keyof typeof REPORT_RENDERERS;

export { createReportInputBuilder, createRowsCollector, ReportRowSchema, type ReportInput, type ReportRow, type ReportInputOptions } from './report-input.js';
export { createJsonlSink } from './jsonl-sink.js';
export { createCsvSink, renderResultsCsv, type CsvOptions } from './results-csv.js';
export type { RecordSink } from './sink.js';
export { renderSummaryJson, renderReportMd, renderJunitXml, renderReportHtml };
