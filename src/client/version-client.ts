/**
 * @module client/version-client
 * Asks a deployment which Onyx release it runs: `GET {base}/version` → `{"backend_version":
 * "v4.5.2"}` (public in every listed release, so no token is sent). Never throws: a deployment that
 * does not say (an older proxy, a development build reporting "Development", no such route) is
 * simply unknown.
 */
import {
  compareVersions,
  NEWEST_ONYX_RELEASE,
  parseOnyxVersion,
  releaseOf,
  VERSION_PATH,
  VersionResponseSchema,
  type OnyxRelease,
} from '../api/index.js';
import { jsonRequest, type JsonEndpointOptions } from './json-request.js';
import { redactDeep } from './redact.js';

/** What a deployment told of itself. */
export interface ServiceVersion {
  /** As the service said it ("v4.5.2", "Development"); null when it did not answer. */
  backend_version: string | null;
  /** The listed release whose behaviour that version has; null when unknown. */
  release: OnyxRelease | null;
}

/** A version answer is a few bytes: by default anything past 64 KiB is not one (eval --max-version-bytes). */
export const DEFAULT_MAX_VERSION_BODY_BYTES = 64 * 1024;
/** The whole probe's time by default (eval --version-timeout): the run waits for it before its first request. */
export const DEFAULT_VERSION_TIMEOUT_MS = 5_000;

/**
 * Probes `GET /version` (default timeout DEFAULT_VERSION_TIMEOUT_MS, its body read to
 * DEFAULT_MAX_VERSION_BODY_BYTES at most; `options` may set either). `secrets` (the run's token and mcp_headers values,
 * redact.ts) are taken out of what the service says, as from every other answer.
 */
export async function probeVersion(
  options: Omit<JsonEndpointOptions, 'token'>,
  signal?: AbortSignal,
  secrets: readonly string[] = [],
): Promise<ServiceVersion> {
  return redactDeep(await probe(options, signal), secrets);
}

async function probe(options: Omit<JsonEndpointOptions, 'token'>, signal?: AbortSignal): Promise<ServiceVersion> {
  try {
    const response = await jsonRequest(
      { timeoutMs: DEFAULT_VERSION_TIMEOUT_MS, maxBodyBytes: DEFAULT_MAX_VERSION_BODY_BYTES, ...options },
      'GET',
      VERSION_PATH,
      undefined,
      signal,
    );
    if (response.status !== 200) return { backend_version: null, release: null };
    const parsed = VersionResponseSchema.safeParse(JSON.parse(response.text));
    if (!parsed.success) return { backend_version: null, release: null };
    const version = parseOnyxVersion(parsed.data.backend_version);
    return {
      backend_version: parsed.data.backend_version.slice(0, 100),
      release: version === undefined ? null : (releaseOf(version) ?? null),
    };
  } catch {
    return { backend_version: null, release: null };
  }
}

/** One line for people: `Onyx v4.5.2 (behaves as release 4.5), NDJSON streams`. */
export function describeService(service: ServiceVersion & { framing: 'ndjson' | 'sse' | null }): string {
  const version =
    service.backend_version === null
      ? 'release unknown (GET /version did not answer)'
      : service.release === null
        ? `release unknown (GET /version says ${JSON.stringify(service.backend_version)})`
        : newerThanNewest(service.backend_version)
          ? `Onyx ${service.backend_version} (newer than ${NEWEST_ONYX_RELEASE}, the newest release chatbench reads: read as ${service.release})`
          : `Onyx ${service.backend_version} (read as release ${service.release})`;
  const framing =
    service.framing === null
      ? 'no stream seen'
      : service.framing === 'ndjson'
        ? 'streams as newline-delimited JSON'
        : 'streams as server-sent events';
  return `${version}, ${framing}`;
}

/** A version past the newest listed minor (v4.9.0 when 4.8 is the newest): it may speak a newer protocol. */
function newerThanNewest(backendVersion: string): boolean {
  const version = parseOnyxVersion(backendVersion);
  const newest = parseOnyxVersion(NEWEST_ONYX_RELEASE);
  return (
    version !== undefined &&
    newest !== undefined &&
    compareVersions(version, { ...newest, patch: Number.MAX_SAFE_INTEGER }) > 0
  );
}
