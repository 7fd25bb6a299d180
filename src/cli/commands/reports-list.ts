/**
 * @module cli/commands/reports-list
 * What eval and report print after writing a run's reports: the files, the ones skipped and why,
 * and how to read the answers in the viewer.
 */
export function reportsList(files: readonly string[], skipped: readonly string[], runDir: string): string {
  return [
    'reports:',
    ...files.map((f) => `  ${f}`),
    ...skipped.map((s) => `  skipped ${s}`),
    `read the answers in the browser: npx chatbench view ${runDir.includes(' ') ? JSON.stringify(runDir) : runDir}`,
    '',
  ].join('\n');
}
