/**
 * @module sim/projects
 * Per-user projects and their instruction text: POST replaces it (empty allowed, no length
 * limit), GET reads it. Needs `basic`, which a scoped personal access token cannot hold. A missing
 * project and someone else's project are both 404 "Project not found", so ids do not leak.
 */
import { z } from 'zod';
import { ProjectInstructionsSchema } from '../api/index.js';
import { DEMO_USER_ID, SECOND_USER_ID } from './auth.js';
import { sendJson } from './http.js';
import { readValidBody } from './parse-body.js';
import { replyProjectNotFound, replyValidation } from './replies.js';
import type { RouteContext } from './route.js';
import { authorize } from './route.js';
import type { PydanticError } from './validation.js';

export const ProjectEntrySchema = z.strictObject({
  id: z.number().int(),
  owner: z.string().min(1, 'owner must be a user_id'),
  instructions: z.string().default(''),
});
export type ProjectEntry = z.infer<typeof ProjectEntrySchema>;

/** Two projects of the demo user (1, 2) and one of the second user (3). */
export function defaultProjects(): ProjectEntry[] {
  return [
    { id: 1, owner: DEMO_USER_ID, instructions: 'Answer in a friendly tone and cite the handbook.' },
    { id: 2, owner: DEMO_USER_ID, instructions: '' },
    { id: 3, owner: SECOND_USER_ID, instructions: 'Only answer questions about finance.' },
  ];
}

/** The in-memory store; a later entry with the same id replaces an earlier one. */
export function createProjectStore(entries: readonly ProjectEntry[]) {
  const projects = new Map(entries.map((entry) => [entry.id, { ...entry }]));
  return {
    /** The project if it exists and `userId` owns it. */
    find(userId: string, id: number): ProjectEntry | undefined {
      const project = projects.get(id);
      return project?.owner === userId ? project : undefined;
    },
    replace(userId: string, id: number, instructions: string): boolean {
      const project = projects.get(id);
      if (project?.owner !== userId) return false;
      project.instructions = instructions;
      return true;
    },
  };
}
export type ProjectStore = ReturnType<typeof createProjectStore>;

const INT_PARSING = 'Input should be a valid integer, unable to parse string as an integer';

/** FastAPI's path-parameter parse of an int; otherwise the error at loc ["path", "project_id"]. */
function parseProjectId(raw: string): { id: number } | { error: PydanticError } {
  if (/^\s*[+-]?\d+\s*$/.test(raw)) return { id: Number(raw) };
  return { error: { type: 'int_parsing', loc: ['path', 'project_id'], msg: INT_PARSING, input: raw } };
}

/** The GET and POST handlers of {base}/user/projects/{project_id}/instructions. */
export function projectInstructionsHandlers(store: ProjectStore) {
  return {
    GET(ctx: RouteContext): void {
      const principal = authorize(ctx, 'basic');
      if (principal === undefined) return;
      const parsed = parseProjectId(ctx.params.project_id ?? '');
      if ('error' in parsed) return replyValidation(ctx.res, [parsed.error], ctx.body.validationShape);
      const project = store.find(principal.userId, parsed.id);
      if (project === undefined) replyProjectNotFound(ctx.res);
      else sendJson(ctx.res, 200, { instructions: project.instructions });
    },
    async POST(ctx: RouteContext): Promise<void> {
      const principal = authorize(ctx, 'basic');
      if (principal === undefined) return;
      const parsed = parseProjectId(ctx.params.project_id ?? '');
      const prior = 'error' in parsed ? [parsed.error] : [];
      const body = await readValidBody(ctx.req, ctx.res, ProjectInstructionsSchema, ctx.body, { prior });
      if (body === undefined || 'error' in parsed) return;
      if (!store.replace(principal.userId, parsed.id, body.instructions)) replyProjectNotFound(ctx.res);
      else sendJson(ctx.res, 200, { instructions: body.instructions });
    },
  };
}
