#!/usr/bin/env node
// Run by scripts/build-cli.mjs after tsc: writes the JSON Schemas chatbench ships for editors
// (dist/schemas/config.schema.json and sets.schema.json) from the compiled code, so they always
// describe the options and the sets file of the build beside them (src/cli/schemas).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { buildSchemas } = await import(join(root, 'dist', 'cli', 'schemas', 'index.js'));
const { nodeIo } = await import(join(root, 'dist', 'cli', 'io.js'));
const dir = join(root, 'dist', 'schemas');
mkdirSync(dir, { recursive: true });
for (const [name, schema] of Object.entries(await buildSchemas(nodeIo())))
  writeFileSync(join(dir, name), `${JSON.stringify(schema, null, 2)}\n`);
