/**
 * @module sim/releases
 * What the simulator writes differently to speak like one Onyx release (docs/reference/onyx-releases.md,
 * read from the service's source at each tag). `onyx_release` in the config (or `chatbench serve
 * --onyx-release 4.5`) picks the release; the default is the newest. Patch backports are not
 * modelled: a release behaves as its minor's first patch.
 */
import { z } from 'zod';
import {
  NEWEST_ONYX_RELEASE,
  ONYX_RELEASES,
  parseOnyxVersion,
  releaseAtLeast,
  releaseOf,
  type OnyxRelease,
} from '../api/index.js';

/** `"4.5"`, `"v4.5"`, `"4.5.2"`: a listed minor release, with its patch for `GET /version`. */
export const OnyxReleaseSchema = z.string().transform((text, ctx) => {
  const version = parseOnyxVersion(text);
  const release = version && releaseOf(version);
  if (version === undefined || release === undefined || `${version.major}.${version.minor}` !== release) {
    ctx.addIssue({
      code: 'custom',
      message: `unknown Onyx release ${JSON.stringify(text)}: one of ${ONYX_RELEASES.join(', ')} (a patch such as 4.5.2 may follow)`,
    });
    return z.NEVER;
  }
  return { release, backend_version: `v${version.major}.${version.minor}.${version.patch}` };
});
export type OnyxReleaseChoice = z.output<typeof OnyxReleaseSchema>;

/** How packets carry `model_index`: absent before v3.1, always null in v3.1, set from v3.2. */
export type PlacementStyle = 'absent' | 'null' | 'set';

/** Everything the simulator writes differently for one release. */
export interface ReleaseTraits {
  readonly release: OnyxRelease;
  /** `GET /version`: `{"backend_version": ...}`. */
  readonly backendVersion: string;
  /** v4.6+: the session line and the full response carry `incognito`. */
  readonly incognitoKey: boolean;
  readonly placement: PlacementStyle;
  /** v3.2+: two or three llm_overrides answer side by side; before, llm_overrides is ignored. */
  readonly multiModel: boolean;
  /** v2.12+: message_start has `pre_answer_processing_seconds`. */
  readonly preAnswerSeconds: boolean;
  /** v3.3+: a SearchDoc has `file_id`. */
  readonly fileId: boolean;
  /** v4.1+: `chat_heartbeat` packets after a silence. */
  readonly heartbeats: boolean;
  /** v4.3: `search_tool_filter_delta {sources}`; v4.4+: and the time bounds. */
  readonly filterDelta: 'none' | 'sources' | 'time';
  /** v3.2+: a failing tool is a `{"type": "error"}` packet and the answer goes on; before, the stream ends in a streaming error. */
  readonly toolErrorPacket: boolean;
  /** The streaming error code of a failed tool before v3.2: TOOL_CALL_FAILED (v2.7–v2.8), then the generic classification. */
  readonly toolFailureCode: string;
  /** v3.2–v4.1: every error inside a model is MODEL_ERROR, retryable. */
  readonly modelErrorsUnclassified: boolean;
  /** v3.2+: a model's error details carry its model_index. */
  readonly detailsModelIndex: boolean;
  /** The code of an answer with no text: null before v3.1 (the stream reaches stop with nothing said). */
  readonly emptyAnswerCode: string | null;
  /** v4.5+: a refusal is MODEL_REFUSAL (not retryable) and empty-answer details add tool_choice and finish_reason. */
  readonly refusal: boolean;
  /** v4.5+: a spent usage budget is the structured 429 with Retry-After; before, `{"detail": "Token budget exceeded ..."}`. */
  readonly structuredBudget429: boolean;
  /** v4.1+: token scopes exist (a scoped token lacking one gets 403 INSUFFICIENT_PERMISSIONS). */
  readonly scopes: boolean;
  /** v4.0+: the full response's chat_session_id is back-filled from the request. */
  readonly fullSessionBackfill: boolean;
  /** v3.1+: custom and MCP tool packets carry `tool_id` and `error`, and a custom tool sends `custom_tool_args`. */
  readonly customToolIds: boolean;
  /** v4.7+: `GET /health/ready` (readiness from the request thread pool); before, 404. */
  readonly readinessProbe: boolean;
}

/** The traits of a release choice (default: the newest release). */
export function releaseTraits(
  choice: OnyxReleaseChoice = { release: NEWEST_ONYX_RELEASE, backend_version: `v${NEWEST_ONYX_RELEASE}.0` },
): ReleaseTraits {
  const r = choice.release;
  const since = (v: OnyxRelease) => releaseAtLeast(r, v);
  const emptyAnswerCode = !since('3.1')
    ? null
    : !since('3.2')
      ? 'EMPTY_LLM_RESPONSE'
      : !since('4.2')
        ? 'MODEL_ERROR'
        : !since('4.5')
          ? 'UNKNOWN_ERROR'
          : 'EMPTY_LLM_RESPONSE';
  return {
    release: r,
    backendVersion: choice.backend_version,
    incognitoKey: since('4.6'),
    placement: since('3.2') ? 'set' : since('3.1') ? 'null' : 'absent',
    multiModel: since('3.2'),
    preAnswerSeconds: since('2.12'),
    fileId: since('3.3'),
    heartbeats: since('4.1'),
    filterDelta: since('4.4') ? 'time' : since('4.3') ? 'sources' : 'none',
    toolErrorPacket: since('3.2'),
    toolFailureCode: since('2.12') ? 'UNKNOWN_ERROR' : 'TOOL_CALL_FAILED',
    modelErrorsUnclassified: since('3.2') && !since('4.2'),
    detailsModelIndex: since('3.2'),
    emptyAnswerCode,
    refusal: since('4.5'),
    structuredBudget429: since('4.5'),
    scopes: since('4.1'),
    fullSessionBackfill: since('4.0'),
    customToolIds: since('3.1'),
    readinessProbe: since('4.7'),
  };
}
