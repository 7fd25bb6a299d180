/**
 * @module app/store/run-file
 * A run directory's JSON documents (manifest.json, summary.json, generator.json) read back as
 * untrusted input: a file of any size may sit there (copied, edited, or written by something else),
 * so each is read no further than the cap of a run file (--max-run-line-bytes: util/limits runFileLineBytes) and refused past
 * it as `file: larger than N bytes` (InputError, exit 2) instead of being parsed whole.
 */
import { InputError } from '../../errors.js';
import { formatCount, RUN_LINE_FLAG, runFileLineBytes } from '../../util/limits.js';
import { FileTooLargeError, readCapped } from '../../util/read-capped.js';

/** The file's text; undefined when it does not exist; InputError past the cap; other fs errors as thrown. */
export async function readRunFileText(full: string, name: string): Promise<string | undefined> {
  try {
    return (await readCapped(full, runFileLineBytes())).toString('utf8');
  } catch (error) {
    if (error instanceof FileTooLargeError) {
      throw new InputError(
        [`${name}: larger than ${formatCount(runFileLineBytes())} bytes, the limit of a run file (${RUN_LINE_FLAG})`],
        { cause: error },
      );
    }
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
