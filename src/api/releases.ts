/**
 * @module api/releases
 * The Onyx releases chatbench reads (docs/reference/onyx-releases.md): from v2.7, the first with
 * `POST /chat/send-chat-message`, to the newest. Each minor release is one entry; what differs
 * between them is in the spec, and the simulator speaks each one (`onyx_release`).
 *
 * A deployment tells its version at `GET {base}/version` (public, no token needed):
 * `{"backend_version": "v4.5.2"}` for a tagged build, "Development" or "0.0.0-dev" otherwise.
 */
import { z } from 'zod';

export const VERSION_PATH = '/version';

/** `GET /version` of every listed release. */
export const VersionResponseSchema = z.looseObject({ backend_version: z.string() });
export type VersionResponse = z.infer<typeof VersionResponseSchema>;

/** The listed minor releases, oldest first. */
export const ONYX_RELEASES = [
  '2.7',
  '2.12',
  '3.0',
  '3.1',
  '3.2',
  '3.3',
  '4.0',
  '4.1',
  '4.2',
  '4.3',
  '4.4',
  '4.5',
  '4.6',
  '4.7',
  '4.8',
] as const;
export type OnyxRelease = (typeof ONYX_RELEASES)[number];
export const NEWEST_ONYX_RELEASE: OnyxRelease = '4.8';

/** A version as numbers. */
export interface OnyxVersion {
  major: number;
  minor: number;
  patch: number;
}

const VERSION_PATTERN = /^v?(\d+)\.(\d+)(?:\.(\d+))?(?:[-+].*)?$/;

/** `v4.5.2`, `4.5.2`, `4.5` (patch 0), `v4.6.0-beta.1`; undefined for anything else ("Development"). */
export function parseOnyxVersion(text: string): OnyxVersion | undefined {
  const m = VERSION_PATTERN.exec(text.trim());
  if (m === null) return undefined;
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3] ?? 0) };
}

/** Orders two versions (negative when a < b). */
export function compareVersions(a: OnyxVersion, b: OnyxVersion): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch;
}

const releaseVersion = (release: OnyxRelease): OnyxVersion => parseOnyxVersion(release) as OnyxVersion;

/**
 * The listed release whose behaviour a version has: the newest listed release not after it. A
 * version older than v2.7 has no send-chat-message: undefined. A version newer than the newest
 * listed is read as the newest.
 */
export function releaseOf(version: OnyxVersion): OnyxRelease | undefined {
  let found: OnyxRelease | undefined;
  for (const release of ONYX_RELEASES) if (compareVersions(releaseVersion(release), version) <= 0) found = release;
  return found;
}

/** Whether `release` is `since` or newer. */
export function releaseAtLeast(release: OnyxRelease, since: OnyxRelease): boolean {
  return ONYX_RELEASES.indexOf(release) >= ONYX_RELEASES.indexOf(since);
}
