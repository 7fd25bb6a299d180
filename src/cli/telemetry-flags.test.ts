import { describe, expect, it } from 'vitest';
import { UsageError } from '../errors.js';
import { dashboardFlagsOf, parseListen, telemetryFlagsOf } from './telemetry-flags.js';

describe('telemetry flags', () => {
  it.each([
    ['9646', { host: '127.0.0.1', port: 9646 }],
    ['0.0.0.0:9646', { host: '0.0.0.0', port: 9646 }],
    ['localhost:0', { host: 'localhost', port: 0 }],
    ['[::1]:9646', { host: '::1', port: 9646 }],
  ])('--metrics-listen %s', (text, expected) => {
    expect(parseListen(text)).toEqual(expected);
  });

  it.each(['', 'abc', '70000', 'host:', ':9646', '::1:9646'])('--metrics-listen %j is a usage error', (text) => {
    expect(() => parseListen(text)).toThrow(UsageError);
  });

  it('URLs must be http(s); headers NAME=VALUE and only with an endpoint', () => {
    expect(telemetryFlagsOf({})).toEqual({
      listen: undefined,
      remoteWrite: undefined,
      otlp: undefined,
      dashboard: undefined,
    });
    expect(
      telemetryFlagsOf({ 'otlp-endpoint': 'http://c:4318/v1/metrics', 'otlp-header': ['a=b=c', 'x-k = v'] }).otlp,
    ).toEqual({ url: 'http://c:4318/v1/metrics', headers: { a: 'b=c', 'x-k': 'v' } });
    expect(() => telemetryFlagsOf({ 'metrics-remote-write': 'ftp://x/api/v1/write' })).toThrow(
      /http:\/\/ or https:\/\//,
    );
    expect(() => telemetryFlagsOf({ 'metrics-remote-write': 'not a url' })).toThrow(/not a URL/);
    expect(() => telemetryFlagsOf({ 'otlp-endpoint': 'http://c', 'otlp-header': ['novalue'] })).toThrow(/NAME=VALUE/);
    expect(() => telemetryFlagsOf({ 'otlp-header': ['a=b'] })).toThrow(/needs --otlp-endpoint/);
  });

  it.each([
    [{ dashboard: '' }, { host: '127.0.0.1', port: 0, lingerMs: null }],
    [{ dashboard: '8188' }, { host: '127.0.0.1', port: 8188, lingerMs: null }],
    [
      { dashboard: '0.0.0.0:8188', 'dashboard-linger': '30s' },
      { host: '0.0.0.0', port: 8188, lingerMs: 30_000 },
    ],
    [
      { dashboard: '', 'dashboard-linger': '0' },
      { host: '127.0.0.1', port: 0, lingerMs: 0 },
    ],
  ])('--dashboard %j', (args, expected) => {
    expect(dashboardFlagsOf(args)).toEqual(expected);
  });

  it.each([
    [{ 'dashboard-linger': '5s' }, /needs --dashboard/],
    [{ dashboard: 'nope' }, /--dashboard "nope"/],
    [{ dashboard: '', 'dashboard-linger': 'soon' }, /--dashboard-linger: "soon" is not a duration/],
  ])('--dashboard %j is a usage error', (args, message) => {
    expect(() => dashboardFlagsOf(args)).toThrow(UsageError);
    expect(() => dashboardFlagsOf(args)).toThrow(message);
  });
});
