/**
 * @module client/project-client
 * The project-instructions operation (docs/reference/service-api.md "Project instructions"): the runner applies a set's project
 * instructions before the first request. Anything but a 200 with `{"instructions": string}` is a
 * RunError (exit 3) naming the project, the status and the service's detail; the token never appears.
 */
import { z } from 'zod';
import { ProjectInstructionsSchema, projectInstructionsPath, type ProjectInstructions } from '../api/projects.js';
import { RunError } from '../errors.js';
import { truncateText } from './exchange.js';
import { statusFigures } from './http-errors.js';
import { jsonRequest, type JsonEndpointOptions } from './json-request.js';
import { redactText, secretsOf } from './redact.js';

export interface ProjectClientOptions extends JsonEndpointOptions {
  /** Every other secret of the run (redact.ts runSecrets), taken out of what the server says. */
  secrets?: readonly string[] | undefined;
}

/** Replaces project `projectId`'s instructions; resolves with what the service saved. */
export function putProjectInstructions(
  options: ProjectClientOptions,
  projectId: number,
  instructions: string,
): Promise<ProjectInstructions> {
  return call(options, 'POST', projectId, { instructions });
}

/** Reads project `projectId`'s instructions. */
export function getProjectInstructions(options: ProjectClientOptions, projectId: number): Promise<ProjectInstructions> {
  return call(options, 'GET', projectId, undefined);
}

async function call(
  options: ProjectClientOptions,
  method: 'GET' | 'POST',
  projectId: number,
  body: unknown,
): Promise<ProjectInstructions> {
  const secrets = secretsOf({}, options.token, options.secrets);
  const path = projectInstructionsPath(projectId);
  const what = `${method} ${options.baseUrl.replace(/\/+$/, '')}${path}`;
  let response;
  try {
    response = await jsonRequest(options, method, path, body);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new RunError(`project ${projectId} instructions: ${what} failed: ${redactText(message, secrets)}`, {
      cause: error,
    });
  }
  if (response.status !== 200) {
    const { error_message } = statusFigures(response.status, response.headers, response.text, Date.now());
    throw new RunError(
      `project ${projectId} instructions: ${what} answered ${response.status}: ${redactText(error_message ?? '', secrets)}`,
      {
        hint:
          response.status === 403
            ? 'the token needs the basic scope (a personal access token cannot be given it)'
            : undefined,
      },
    );
  }
  let parsed;
  try {
    parsed = ProjectInstructionsSchema.safeParse(JSON.parse(response.text));
  } catch {
    parsed = undefined;
  }
  if (!parsed?.success) {
    const reason = parsed ? z.prettifyError(parsed.error).replaceAll('\n', ' ') : 'not JSON';
    throw new RunError(
      `project ${projectId} instructions: ${what} answered 200 with an unexpected body (${reason}): ${truncateText(redactText(response.text, secrets), 200)}`,
    );
  }
  return parsed.data;
}
