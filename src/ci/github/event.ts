/**
 * @module ci/github/event
 * The pull request a workflow run is about, from the event file GitHub writes (GITHUB_EVENT_PATH):
 * `pull_request` and `pull_request_target` events carry it as `pull_request.number`, an
 * `issue_comment` on a pull request as `issue.number` (with `issue.pull_request` set). Any other
 * event (push, schedule) has none: no comment is made.
 */
import { z } from 'zod';

const EventSchema = z.object({
  pull_request: z.object({ number: z.number().int().positive() }).optional(),
  issue: z.object({ number: z.number().int().positive(), pull_request: z.unknown().optional() }).optional(),
});

/** The pull request's number, or null when the event is about none. */
export function pullRequestNumber(event: unknown): number | null {
  const parsed = EventSchema.safeParse(event);
  if (!parsed.success) return null;
  if (parsed.data.pull_request) return parsed.data.pull_request.number;
  if (parsed.data.issue?.pull_request !== undefined) return parsed.data.issue.number;
  return null;
}
