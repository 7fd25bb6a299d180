/**
 * @module cli/schemas/files
 * The names of the JSON Schemas chatbench ships under dist/schemas/ (written by
 * scripts/build-schemas.mjs through cli/schemas; read by editors, named by `chatbench init`).
 */
export const SCHEMA_FILES = { config: 'config.schema.json', sets: 'sets.schema.json' } as const;
