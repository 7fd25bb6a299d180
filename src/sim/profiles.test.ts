import { describe, expect, it } from 'vitest';
import { BUILTIN_PROFILES, mergeProfiles, resolveProfile } from './profiles.js';

describe('built-in profiles', () => {
  it('make models different enough to compare', () => {
    const mini = BUILTIN_PROFILES['gpt-4o-mini'];
    const big = BUILTIN_PROFILES['gpt-4o'];
    const claude = BUILTIN_PROFILES['claude-sonnet-4'];
    expect(mini?.first_token_ms.median).toBe(300);
    expect(mini?.token_ms.median).toBe(12);
    expect(mini?.wrong_citation_rate).toBe(0.15);
    expect(mini?.missed_citation_rate).toBe(0.25);
    expect(big?.first_token_ms.median).toBe(700);
    expect(big?.token_ms.median).toBe(22);
    expect(claude?.reasoning).toBe(true);
    expect(claude?.provider).toBe('anthropic');
    expect(BUILTIN_PROFILES.default?.model_name).toBe('gpt-4o');
  });
});

describe('resolveProfile', () => {
  const profiles = mergeProfiles({ 'azure/gpt-4o': { token_ms: { median: 40, p99: 90 } } });
  it.each([
    { name: 'no override', override: null, key: 'default', modelName: 'gpt-4o', known: true },
    { name: 'override without a version', override: { temperature: 0.2 }, key: 'default', modelName: 'gpt-4o' },
    { name: 'known version', override: { model_version: 'gpt-4o-mini' }, key: 'gpt-4o-mini', modelName: 'gpt-4o-mini' },
    {
      name: 'provider-specific key first',
      override: { model_provider: 'azure', model_version: 'gpt-4o' },
      key: 'azure/gpt-4o',
      modelName: 'gpt-4o',
    },
    {
      name: 'other provider falls back to the version',
      override: { model_provider: 'openai', model_version: 'gpt-4o' },
      key: 'gpt-4o',
      modelName: 'gpt-4o',
    },
    {
      name: 'unknown version: the provider has no such model',
      override: { model_version: 'llama-3' },
      key: 'default',
      modelName: 'llama-3',
      known: false,
    },
    {
      name: 'a misspelled model of a known provider',
      override: { model_provider: 'openai', model_version: 'gpt-4o-mnii' },
      key: 'default',
      modelName: 'gpt-4o-mnii',
      known: false,
    },
    {
      name: 'a provider the service lacks: its default model, silently',
      override: { model_provider: 'bedrock', model_version: 'claude-3' },
      key: 'default',
      modelName: 'gpt-4o',
      known: true,
    },
    {
      name: 'display name wins',
      override: { model_version: 'gpt-4o', display_name: 'GPT 4o (prod)' },
      key: 'gpt-4o',
      modelName: 'GPT 4o (prod)',
    },
  ])('$name', ({ override, key, modelName, known }) => {
    const resolved = resolveProfile(profiles, override);
    expect(resolved.key).toBe(key);
    expect(resolved.modelName).toBe(modelName);
    expect(resolved.known).toBe(known ?? true);
  });
});

describe('mergeProfiles', () => {
  it('overrides only the fields given and adds new keys on top of default', () => {
    const merged = mergeProfiles({ 'gpt-4o-mini': { error_rate: 0.5 }, 'my-model': { reasoning: true } });
    expect(merged['gpt-4o-mini']?.error_rate).toBe(0.5);
    expect(merged['gpt-4o-mini']?.token_ms).toEqual(BUILTIN_PROFILES['gpt-4o-mini']?.token_ms);
    expect(merged['my-model']).toMatchObject({
      model_name: 'my-model',
      reasoning: true,
      token_ms: BUILTIN_PROFILES.default?.token_ms,
    });
  });
  it('rejects a merged profile whose p99 is below its median', () => {
    expect(() => mergeProfiles({ 'gpt-4o': { token_ms: { median: 50, p99: 10 } } })).toThrow(
      /p99 must be at least the median/,
    );
  });
});
