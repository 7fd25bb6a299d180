/**
 * @module cli/version
 * The toolkit's version, read once from package.json (reports print it; they never read files).
 */
import { readFileSync } from 'node:fs';

export const VERSION: string = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
