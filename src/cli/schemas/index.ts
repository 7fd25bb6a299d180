/**
 * @module cli/schemas
 * The JSON Schemas chatbench ships for editors (dist/schemas/, written at build time by
 * scripts/build-schemas.mjs): the config file's, made from every command's options, and the sets
 * file's, from its zod schema. `chatbench init` points the files it writes at them.
 */
import { SetsFileSchema } from '../../sets/schema.js';
import type { Io } from '../io.js';
import { withGlobalOptions } from '../main.js';
import { configSchema, declaredOptions, toJsonSchemaDocument } from './config-schema.js';

import { SCHEMA_FILES } from './files.js';

export { SCHEMA_FILES } from './files.js';

/** Every shipped schema, by file name. */
export async function buildSchemas(io: Io): Promise<Record<string, Record<string, unknown>>> {
  const { global, commands } = await declaredOptions(io, withGlobalOptions as never);
  return {
    [SCHEMA_FILES.config]: { title: 'chatbench config file', ...toJsonSchemaDocument(configSchema(global, commands)) },
    [SCHEMA_FILES.sets]: {
      title: 'chatbench model override sets file (--sets-file)',
      ...toJsonSchemaDocument(SetsFileSchema),
    },
  };
}
