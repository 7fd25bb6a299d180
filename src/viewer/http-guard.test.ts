import { describe, expect, it } from 'vitest';
import { hostGuard } from './http-guard.js';

describe('hostGuard: the Host headers a local page server answers', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1:8188', true],
    ['127.0.0.1', 'localhost:8188', true],
    ['127.0.0.1', '[::1]:8188', true],
    ['127.0.0.1', '127.0.0.1:9999', false],
    ['127.0.0.1', 'evil.example:8188', false],
    ['127.0.0.1', undefined, false],
    ['192.168.1.5', '192.168.1.5:8188', true],
    ['192.168.1.5', 'localhost:8188', false],
    ['0.0.0.0', '10.0.0.7:8188', true],
    ['0.0.0.0', '[fe80::1]:8188', true],
    ['0.0.0.0', 'rebind.example:8188', false],
    ['0.0.0.0', '10.0.0.7:80', false],
  ])('bound to %s: Host %s → %s', (host, header, allowed) => {
    expect(hostGuard(host, 8188).allows(header)).toBe(allowed);
  });
});
