#!/usr/bin/env node
/**
 * @module cli/github-action
 * The GitHub Action's reporting step (action.yml runs `node <package>/dist/cli/github-action.js`):
 * `RUN_DIR` from CHATBENCH_RUN_DIR, chatbench's own step summary from CHATBENCH_OWN_SUMMARY, the
 * token from CHATBENCH_GITHUB_TOKEN, CHATBENCH_COMMENT=false to skip the comment; the rest are the
 * variables GitHub sets (ci/github/report-run). Exit 0 when it reported, 3 when it could not (the
 * action still exits with chatbench's own code when that is worse).
 */
import { githubReport } from '../ci/github/report-run.js';

const env = process.env;
try {
  await githubReport({
    runDir: env.CHATBENCH_RUN_DIR ?? 'reports/chatbench-ci',
    ownSummaryPath: env.CHATBENCH_OWN_SUMMARY,
    comment: env.CHATBENCH_COMMENT !== 'false',
    token: env.CHATBENCH_GITHUB_TOKEN,
    env,
    write: (line) => void process.stdout.write(line),
  });
} catch (error) {
  process.stderr.write(`chatbench github report: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 3;
}
