import { describe, expect, it } from 'vitest';
import { UsageError } from '../errors.js';
import { parseSetFlag } from './set-flag.js';

const FORM = '(expected name=provider:version[@temperature], e.g. fast=openai:gpt-4o-mini@0)';

describe('parseSetFlag', () => {
  it.each([
    {
      flag: 'fast=openai:gpt-4o-mini@0',
      override: { model_provider: 'openai', model_version: 'gpt-4o-mini', temperature: 0 },
    },
    { flag: 'big=openai:gpt-4o', override: { model_provider: 'openai', model_version: 'gpt-4o' } },
    {
      flag: 'warm.v2=anthropic:claude-sonnet-4@1.5',
      override: { model_provider: 'anthropic', model_version: 'claude-sonnet-4', temperature: 1.5 },
    },
    {
      flag: 'b_1=bedrock:anthropic.claude-3:0@2',
      override: { model_provider: 'bedrock', model_version: 'anthropic.claude-3:0', temperature: 2 },
    },
    {
      flag: ' spaced = openai : gpt-4o @ 0.7 ',
      override: { model_provider: 'openai', model_version: 'gpt-4o', temperature: 0.7 },
    },
  ])('$flag', ({ flag, override }) => {
    const set = parseSetFlag(flag);
    expect(set).toEqual({
      name: flag.split('=')[0]?.trim(),
      llm_override: override,
      llm_overrides: null,
      multi: false,
    });
  });

  it.each([
    { flag: 'fast', problem: 'no "=" between the set name and the model' },
    { flag: '=openai:gpt-4o', problem: 'the set name is empty' },
    { flag: 'my set=openai:gpt-4o', problem: 'the set name "my set" may hold only letters, digits, ".", "_" and "-"' },
    { flag: 'fast=gpt-4o', problem: 'no ":" between the provider and the model version' },
    { flag: 'fast=:gpt-4o', problem: 'the provider is empty' },
    { flag: 'fast=openai:', problem: 'the model version is empty' },
    { flag: 'fast=openai:gpt-4o@', problem: 'the temperature "" is not a number' },
    { flag: 'fast=openai:gpt-4o@warm', problem: 'the temperature "warm" is not a number' },
    { flag: 'fast=openai:gpt-4o@2.5', problem: 'the temperature 2.5 is outside 0 to 2' },
    { flag: 'fast=openai:gpt-4o@-1', problem: 'the temperature -1 is outside 0 to 2' },
  ])('$flag → $problem', ({ flag, problem }) => {
    expect(() => parseSetFlag(flag)).toThrow(new UsageError(`--set ${JSON.stringify(flag)}: ${problem} ${FORM}`));
  });
});
