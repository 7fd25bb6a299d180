/**
 * @module cli/ca-file
 * `--ca-file PATH` (or CHATBENCH_CA_FILE, or `ca-file` in a config file): PEM certificates of the
 * certificate authority that issued a deployment's certificate (a self-signed or company CA), trusted
 * in addition to the system's for every HTTPS connection of the command (client/trust). Without it,
 * Node's own NODE_EXTRA_CA_CERTS works too; with it, that file's certificates are kept as well.
 */
import { resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { formatBytes } from '../util/limits.js';
import { FileTooLargeError, readCappedSync } from '../util/read-capped.js';
import type { Io } from './io.js';

/** A bundle of a few hundred CAs is a few hundred kB; a file over this is not one. */
const MAX_CA_FILE_BYTES = 4 * 1024 * 1024;
const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** The certificates of `path` (relative to `cwd`) as PEM text; UsageError naming the file when there are none. */
export function readCaFile(path: string, cwd: string, flag = '--ca-file'): string {
  let text: string;
  try {
    text = readCappedSync(resolve(cwd, path), MAX_CA_FILE_BYTES).toString('utf8');
  } catch (error) {
    if (error instanceof FileTooLargeError)
      throw new UsageError(`${flag} ${path}: over the ${formatBytes(MAX_CA_FILE_BYTES)} limit of a certificate file`);
    throw new UsageError(`${flag}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const certificates = text.match(PEM_CERTIFICATE);
  if (certificates === null)
    throw new UsageError(
      `${flag} ${path}: no PEM certificate in it (a "-----BEGIN CERTIFICATE-----" block; convert a DER file with: openssl x509 -inform der -in ca.der -out ca.pem)`,
    );
  return certificates.join('\n');
}

/**
 * Trusts the `--ca-file` certificates (and NODE_EXTRA_CA_CERTS', which an explicit list would drop)
 * before anything connects. The HTTP client (client/trust) loads only when a file is given.
 */
export async function applyCaFile(path: string | undefined, io: Pick<Io, 'cwd' | 'env'>): Promise<void> {
  if (path === undefined || path === '') return;
  const extra = io.env.NODE_EXTRA_CA_CERTS;
  const pem = [readCaFile(path, io.cwd), ...(extra ? [readCaFile(extra, io.cwd, 'NODE_EXTRA_CA_CERTS')] : [])].join(
    '\n',
  );
  const { trustCertificates } = await import('../client/trust.js');
  trustCertificates(pem);
}
