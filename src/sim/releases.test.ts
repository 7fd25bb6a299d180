import { describe, expect, it } from 'vitest';
import { OnyxReleaseSchema, releaseTraits } from './releases.js';

describe('onyx_release', () => {
  it.each([
    ['4.5', { release: '4.5', backend_version: 'v4.5.0' }],
    ['v4.5.2', { release: '4.5', backend_version: 'v4.5.2' }],
    ['2.7', { release: '2.7', backend_version: 'v2.7.0' }],
    ['2.12.13', { release: '2.12', backend_version: 'v2.12.13' }],
  ])('%s', (text, want) => expect(OnyxReleaseSchema.parse(text)).toEqual(want));
  it.each(['2.6', '2.8', '5.0', 'latest', ''])('refuses %j', (text) => {
    expect(OnyxReleaseSchema.safeParse(text).success).toBe(false);
  });
  it('defaults to the newest release', () =>
    expect(releaseTraits()).toMatchObject({
      release: '4.8',
      backendVersion: 'v4.8.0',
      incognitoKey: true,
      placement: 'set',
      readinessProbe: true,
    }));
  it.each([
    [
      '2.7',
      {
        placement: 'absent',
        multiModel: false,
        preAnswerSeconds: false,
        heartbeats: false,
        toolFailureCode: 'TOOL_CALL_FAILED',
        emptyAnswerCode: null,
        scopes: false,
      },
    ],
    ['3.1', { placement: 'null', multiModel: false, emptyAnswerCode: 'EMPTY_LLM_RESPONSE', fileId: false }],
    [
      '3.2',
      {
        placement: 'set',
        multiModel: true,
        toolErrorPacket: true,
        modelErrorsUnclassified: true,
        emptyAnswerCode: 'MODEL_ERROR',
      },
    ],
    [
      '4.2',
      { modelErrorsUnclassified: false, emptyAnswerCode: 'UNKNOWN_ERROR', heartbeats: true, filterDelta: 'none' },
    ],
    ['4.4', { filterDelta: 'time', refusal: false, structuredBudget429: false }],
    ['4.5', { refusal: true, structuredBudget429: true, emptyAnswerCode: 'EMPTY_LLM_RESPONSE', incognitoKey: false }],
  ] as const)('v%s', (release, traits) => {
    expect(releaseTraits(OnyxReleaseSchema.parse(release))).toMatchObject(traits);
  });
});
