/**
 * @module sets/set-flag
 * The `--set name=provider:version[@temperature]` shortcut for quick runs without a sets file.
 */
import { UsageError } from '../errors.js';
import { SET_NAME_PATTERN, StrictLLMOverrideSchema, type SetDefinition } from './schema.js';

import { SET_FLAG_FORM } from './flag-forms.js';

export { SET_FLAG_FORM } from './flag-forms.js';

/**
 * Parses one `--set` value into a single-model set. The version runs from the first ":" to the
 * last "@" (or the end), so versions with colons keep them. Throws UsageError naming the flag and
 * what is wrong: missing "=" or ":", an empty or badly formed name, provider or version, or a
 * temperature that is not a number between 0 and 2.
 */
export function parseSetFlag(value: string): SetDefinition {
  const fail = (problem: string) => badFlag(value, problem);
  const equals = value.indexOf('=');
  if (equals === -1) fail('no "=" between the set name and the model');
  const name = value.slice(0, equals).trim();
  if (name === '') fail('the set name is empty');
  if (!SET_NAME_PATTERN.test(name))
    fail(`the set name ${JSON.stringify(name)} may hold only letters, digits, ".", "_" and "-"`);

  let model = value.slice(equals + 1).trim();
  let temperature: number | undefined;
  const at = model.lastIndexOf('@');
  if (at !== -1) {
    const text = model.slice(at + 1).trim();
    temperature = Number(text);
    if (text === '' || !Number.isFinite(temperature)) fail(`the temperature ${JSON.stringify(text)} is not a number`);
    if (temperature < 0 || temperature > 2) fail(`the temperature ${text} is outside 0 to 2`);
    model = model.slice(0, at);
  }
  const colon = model.indexOf(':');
  if (colon === -1) fail('no ":" between the provider and the model version');
  const provider = model.slice(0, colon).trim();
  const version = model.slice(colon + 1).trim();
  if (provider === '') fail('the provider is empty');
  if (version === '') fail('the model version is empty');

  const override = StrictLLMOverrideSchema.safeParse({
    model_provider: provider,
    model_version: version,
    ...(temperature === undefined ? {} : { temperature }),
  });
  if (!override.success) return badFlag(value, override.error.issues[0]?.message ?? 'invalid override');
  return { name, llm_override: override.data, llm_overrides: null, multi: false };
}

function badFlag(value: string, problem: string): never {
  throw new UsageError(`--set ${JSON.stringify(value)}: ${problem} (expected ${SET_FLAG_FORM})`);
}
