import { describe, expect, it } from 'vitest';
import { createSecretScreen, redactDeep, redactText, runSecrets, secretsOf } from './redact.js';

it('secrets: the token, every mcp_headers value and its credential part, longest first, short ones left', () => {
  expect(secretsOf({ mcp_headers: { Authorization: 'Bearer jwt-abc-123', 'X-On': 'on' } }, 'tok-5678')).toEqual([
    'Bearer jwt-abc-123',
    'jwt-abc-123',
    'tok-5678',
  ]);
});

it('redactDeep: every string at any depth, object keys too; a clean value is returned as it is', () => {
  const secrets = ['tok-5678'];
  const value = {
    answer: 'say tok-5678',
    models: [{ model_name: 'm-tok-5678', n: 1 }],
    first_packet_ms: { 'x_tok-5678': 3 },
    rate_limit: { scope: 'tok-5678', reset_at: null },
  };
  expect(redactDeep(value, secrets)).toEqual({
    answer: 'say [redacted]',
    models: [{ model_name: 'm-[redacted]', n: 1 }],
    first_packet_ms: { 'x_[redacted]': 3 },
    rate_limit: { scope: '[redacted]', reset_at: null },
  });
  const clean = { answer: 'fine', list: ['a', { b: 'c' }] };
  expect(redactDeep(clean, secrets)).toBe(clean);
  expect(redactDeep(clean, [])).toBe(clean);
});

it("redactDeep: a key found clean once is known clean; a key with a secret is redacted every time, past the cache's bound too", () => {
  const secrets = ['tok-abcdefgh-12345678'];
  const dirty = { 'x_tok-abcdefgh-12345678': 1 };
  for (let round = 0; round < 2; round++) {
    expect(redactDeep({ answer: 'a', dirty }, secrets)).toEqual({ answer: 'a', dirty: { 'x_[redacted]': 1 } });
    const clean = { answer: 'a', nested: { fine: 1 } };
    expect(redactDeep(clean, secrets)).toBe(clean);
  }
  // A service naming keys without end: past the bound every key is still searched.
  const many = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`kind_${i}`, i]));
  expect(redactDeep(many, secrets)).toBe(many);
  expect(redactDeep({ ...many, 'tok-abcdefgh-x': 1 }, secrets)).toHaveProperty(['[redacted]x'], 1);
});

it('redactText: a prefix or suffix of 8+ characters left by a cut is hidden, wherever it stands; shorter ones and clean text stay', () => {
  const secrets = secretsOf({}, 'Zq9xTOKsecret-0123456789');
  expect(redactText('auth failed for Zq9xTOKsecre…', secrets)).toBe('auth failed for [redacted]…');
  expect(redactText('…et-0123456789 was refused', secrets)).toBe('…[redacted] was refused');
  expect(redactText('x Zq9xTOKsecret-0123456789 y', secrets)).toBe('x [redacted] y');
  expect(redactText('Zq9xTOK is 7', secrets)).toBe('Zq9xTOK is 7');
  expect(redactText('Zq9xTOKs and 23456789', secrets)).toBe('[redacted] and [redacted]');
  const clean = 'nothing here';
  expect(redactText(clean, secrets)).toBe(clean);
});

it('runSecrets: every token, the judge key and every mcp_headers value; a scheme prefix is not a cut', () => {
  const secrets = runSecrets({
    tokens: ['user-one-token', 'user-two-token'],
    judgeToken: 'sk-judge-key-1',
    mcpHeaders: { Authorization: 'Bearer mcp-value-123' },
  });
  expect(secrets).toEqual(
    expect.arrayContaining([
      'user-one-token',
      'user-two-token',
      'sk-judge-key-1',
      'Bearer mcp-value-123',
      'mcp-value-123',
    ]),
  );
  expect(redactText('Bearer authentication needed', secrets)).toBe('Bearer authentication needed');
  expect(redactText('echo mcp-value-1…', secrets)).toBe('echo [redacted]…');
});

describe('createSecretScreen: a serialised line is walked only when it may hold a secret', () => {
  const screen = createSecretScreen(['Zq9xTOKsecret42abc', 'Bearer Zq9xTOKsecret42abc', 'short']);
  it.each([
    ['the whole token', '{"a":"x Zq9xTOKsecret42abc y"}', true],
    ['a prefix cut of 8+', '{"error_message":"Zq9xTOKsecre…"}', true],
    ['a suffix cut of 8+', '{"a":"…secret42abc"}', true],
    ['a short secret whole', '{"a":"short"}', true],
    ['a prefix cut of 7', '{"a":"Zq9xTOK"}', false],
    ['nothing', '{"a":"an ordinary answer"}', false],
  ])('%s', (_, line, want) => {
    expect(screen(line)).toBe(want);
    // Never looser than the walk: where the screen says no, redactText changes nothing.
    if (!want) expect(redactText(line, ['Zq9xTOKsecret42abc', 'Bearer Zq9xTOKsecret42abc', 'short'])).toBe(line);
  });
  it('a secret JSON would escape makes every line suspect', () => {
    expect(createSecretScreen(['tok"en\\value1234'])('{"a":"clean"}')).toBe(true);
  });
  it('no secrets: nothing to look for', () => {
    expect(createSecretScreen([])('{"a":"anything"}')).toBe(false);
  });
});
