import { expect, it } from 'vitest';
import { redactDeep, secretsOf } from './redact.js';

it('secrets: the token, every mcp_headers value and its credential part, longest first, short ones left', () => {
  expect(secretsOf({ mcp_headers: { Authorization: 'Bearer jwt-abc-123', 'X-On': 'on' } }, 'tok-5678')).toEqual(['Bearer jwt-abc-123', 'jwt-abc-123', 'tok-5678']);
});

it('redactDeep: every string at any depth, object keys too; a clean value is returned as it is', () => {
  const secrets = ['tok-5678'];
  const value = { answer: 'say tok-5678', models: [{ model_name: 'm-tok-5678', n: 1 }], first_packet_ms: { 'x_tok-5678': 3 }, rate_limit: { scope: 'tok-5678', reset_at: null } };
  expect(redactDeep(value, secrets)).toEqual({
    answer: 'say [redacted]', models: [{ model_name: 'm-[redacted]', n: 1 }], first_packet_ms: { 'x_[redacted]': 3 }, rate_limit: { scope: '[redacted]', reset_at: null },
  });
  const clean = { answer: 'fine', list: ['a', { b: 'c' }] };
  expect(redactDeep(clean, secrets)).toBe(clean);
  expect(redactDeep(clean, [])).toBe(clean);
});
