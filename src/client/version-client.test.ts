import { describe, expect, it } from 'vitest';
import { HealthOkSchema, NotReadySchema, parseOnyxVersion, releaseOf } from '../api/index.js';
import { describeService } from './version-client.js';
import { readFileSync } from 'node:fs';

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../test/fixtures/onyx-releases/${name}`, import.meta.url), 'utf8')) as unknown;

describe('the version probe names releases 4.7 and 4.8', () => {
  it.each([
    { version: 'v4.6.12', release: '4.6' },
    { version: 'v4.7.0', release: '4.7' },
    { version: 'v4.7.11', release: '4.7' },
    { version: 'v4.7.0-cloud.1', release: '4.7' },
    { version: 'v4.8.5', release: '4.8' },
    { version: 'v5.0.0', release: '4.8' },
  ])('$version is read as $release', ({ version, release }) =>
    expect(releaseOf(parseOnyxVersion(version)!)).toBe(release),
  );

  it('says when a deployment is newer than the newest release chatbench reads', () => {
    expect(describeService({ backend_version: 'v4.8.5', release: '4.8', framing: 'ndjson' })).toBe(
      'Onyx v4.8.5 (read as release 4.8), streams as newline-delimited JSON',
    );
    expect(describeService({ backend_version: 'v4.9.0', release: '4.8', framing: 'ndjson' })).toBe(
      'Onyx v4.9.0 (newer than 4.8, the newest release chatbench reads: read as 4.8), streams as newline-delimited JSON',
    );
  });

  it('the probe bodies of v4.7 parse with the contract', () => {
    expect(HealthOkSchema.parse(fixture('health-ready-v4.7.json')).data?.threadpool_total_tokens).toBe(40);
    expect(NotReadySchema.parse(fixture('503-v4.7-not-ready.json')).detail).toMatch(
      /^Request threadpool saturated for 12\.3s/,
    );
    expect(HealthOkSchema.parse(fixture('health-v2.7.json')).data).toBeNull();
  });
});
