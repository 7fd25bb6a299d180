/**
 * @module client/trust
 * The certificate authorities chatbench's HTTPS connections trust beyond the system's: what
 * `--ca-file` names, for a deployment whose certificate a private or self-signed CA issued. Set
 * once at the CLI edge before anything connects (and in each load worker from its data); every
 * Agent this package makes reads `tlsConnectOptions()`, and undici's global dispatcher (requests
 * made without one: the API calls, the judge) is replaced by one that trusts them too.
 */
import { rootCertificates } from 'node:tls';
import { Agent, getGlobalDispatcher, setGlobalDispatcher, type Dispatcher } from 'undici';

let trusted: string | undefined;
let before: Dispatcher | undefined;

/** Trusts `pem` (one or more PEM certificates) in addition to the system's CAs, for every later connection. */
export function trustCertificates(pem: string): void {
  before ??= getGlobalDispatcher();
  trusted = pem;
  setGlobalDispatcher(new Agent({ connect: tlsConnectOptions() }));
}

/** Back to the system's CAs only (tests that share a process). */
export function forgetTrustedCertificates(): void {
  trusted = undefined;
  if (before !== undefined) setGlobalDispatcher(before);
  before = undefined;
}

/** The PEM text trusted beyond the system's CAs, if any (a load worker is given it). */
export const trustedCertificates = (): string | undefined => trusted;

/**
 * undici's `connect` options: none when nothing more is trusted (Node's defaults, which include
 * NODE_EXTRA_CA_CERTS); else `ca`, which replaces Node's list, so the system's CAs are named with it.
 */
export function tlsConnectOptions(): { ca?: string[] } {
  return trusted === undefined ? {} : { ca: [...rootCertificates, trusted] };
}
