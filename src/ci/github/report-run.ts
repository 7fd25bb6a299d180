/**
 * @module ci/github/report-run
 * What the GitHub Action (action.yml) does after chatbench ran: from the run directory, append the
 * step summary to GITHUB_STEP_SUMMARY, print an `::error` annotation per failed gate or SLO, and,
 * on a pull request with a token, create or update chatbench's one comment. Reads the files and
 * the variables GitHub sets (GITHUB_STEP_SUMMARY, GITHUB_EVENT_PATH, GITHUB_REPOSITORY,
 * GITHUB_API_URL, GITHUB_SERVER_URL, GITHUB_RUN_ID); everything it decides is in ci/github's pure modules.
 */
import { appendFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { VerdictSchema } from '../../verdict/index.js';
import { upsertComment } from './api.js';
import { commentBody, stepSummary, type RunTexts } from './comment.js';
import { pullRequestNumber } from './event.js';
import { failureAnnotations } from './workflow-commands.js';

export interface GithubReportOptions {
  readonly runDir: string;
  /** The file chatbench itself wrote its step summary to (the action points GITHUB_STEP_SUMMARY there while it runs). */
  readonly ownSummaryPath?: string | undefined;
  /** Comment on the pull request (when the event is one and a token is given). */
  readonly comment: boolean;
  readonly token?: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly write: (line: string) => void;
  readonly fetch?: typeof fetch;
}

export interface GithubReportResult {
  readonly summary: string;
  readonly annotations: readonly string[];
  readonly comment: string;
  readonly commented: 'created' | 'updated' | 'skipped';
}

const readOptional = (path: string | undefined) =>
  path === undefined || path === '' ? Promise.resolve(null) : readFile(path, 'utf8').catch(() => null);

export async function githubReport(options: GithubReportOptions): Promise<GithubReportResult> {
  const { env } = options;
  const verdictText = await readFile(join(options.runDir, 'verdict.json'), 'utf8').catch((error: unknown) => {
    throw new Error(
      `${join(options.runDir, 'verdict.json')}: cannot read the run's verdict (${(error as NodeJS.ErrnoException).code ?? String(error)}); did the chatbench command write this run directory?`,
    );
  });
  const runUrl =
    env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID
      ? `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`
      : null;
  const texts: RunTexts = {
    verdict: VerdictSchema.parse(JSON.parse(verdictText)),
    ownSummary: await readOptional(options.ownSummaryPath),
    reportMd: await readOptional(join(options.runDir, 'report.md')),
    compareMd: await readOptional(join(options.runDir, 'compare.md')),
    runUrl,
  };
  const summary = stepSummary(texts);
  if (env.GITHUB_STEP_SUMMARY) await appendFile(env.GITHUB_STEP_SUMMARY, summary);
  const annotations = failureAnnotations(texts.verdict);
  for (const line of annotations) options.write(`${line}\n`);
  const comment = commentBody(texts);
  const event = env.GITHUB_EVENT_PATH ? (JSON.parse(await readFile(env.GITHUB_EVENT_PATH, 'utf8')) as unknown) : null;
  const pullRequest = pullRequestNumber(event);
  if (!options.comment || pullRequest === null || !options.token || !env.GITHUB_REPOSITORY) {
    return { summary, annotations, comment, commented: 'skipped' };
  }
  const target = {
    apiUrl: env.GITHUB_API_URL ?? 'https://api.github.com',
    repository: env.GITHUB_REPOSITORY,
    pullRequest,
    token: options.token,
  };
  const done = await upsertComment(target, comment, options.fetch);
  options.write(`chatbench: ${done.action} the pull request's comment (#${pullRequest}, comment ${done.id})\n`);
  return { summary, annotations, comment, commented: done.action };
}
