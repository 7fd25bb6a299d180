/**
 * @module api/projects
 * POST and GET {base}/user/projects/{project_id}/instructions (docs/reference/service-api.md "Project instructions").
 */
import { z } from 'zod';

export const projectInstructionsPath = (projectId: number | string) => `/user/projects/${projectId}/instructions`;

export const ProjectInstructionsSchema = z.object({ instructions: z.string() });
export type ProjectInstructions = z.infer<typeof ProjectInstructionsSchema>;
