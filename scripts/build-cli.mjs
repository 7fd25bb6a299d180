#!/usr/bin/env node
// `npm run build:cli` (run by `prepare`, so npm ci builds it, and by `npm test` before vitest): compiles
// src/ to dist/ with tsc (tsconfig.build.json) for bin/chatbench.js, which then starts with no
// transpiler. Skipped when dist/.source-digest already records the digest of the sources now (a
// rebuild would change nothing); otherwise an incremental tsc, then the digest is written. A test
// compares that digest with the sources' (test/build/dist.test.ts), so dist/ never runs stale code.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const DIST = join(root, 'dist');
export const DIGEST_FILE = join(DIST, '.source-digest');
/**
 * TypeScript 7, the native compiler: it builds dist/ and type-checks (npm test, npm run typecheck)
 * in about a third of TypeScript 5's CPU, and emits the same JavaScript byte for byte. It is
 * installed under the name `typescript-7` because `typescript` stays 5.9: typescript-eslint (and
 * dependency-cruiser) parse through TypeScript's JavaScript API, which 7 does not have, and take
 * `typescript` below 6.1. docs/dependencies.md.
 */
export const TSC = join(root, 'node_modules', 'typescript-7', 'bin', 'tsc');

/** What tsconfig.build.json compiles: src/**\/*.ts but tests, fixtures and the viewer's browser app. */
function isCompiled(rel) {
  const posix = rel.split(sep).join('/');
  return (
    posix.endsWith('.ts') &&
    !posix.endsWith('.test.ts') &&
    !posix.includes('/fixtures/') &&
    !posix.startsWith('viewer/ui/')
  );
}

/** Files the compiled code reads beside itself (the judge's prompts, *.md): copied to dist/ as they are. */
function isAsset(rel) {
  const posix = rel.split(sep).join('/');
  return (
    !posix.endsWith('.ts') &&
    !posix.endsWith('.tsx') &&
    !posix.includes('/fixtures/') &&
    !posix.startsWith('viewer/ui/')
  );
}

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? walk(path) : [path];
  });
}

/** The sources dist/ is built from, relative to src/, sorted. */
export function compiledSources() {
  const src = join(root, 'src');
  return walk(src)
    .map((path) => relative(src, path))
    .filter(isCompiled)
    .sort();
}

/** The assets copied to dist/, relative to src/, sorted. */
export function assetFiles() {
  const src = join(root, 'src');
  return walk(src)
    .map((path) => relative(src, path))
    .filter(isAsset)
    .sort();
}

/** SHA-256 over every compiled source's path and bytes, and the build's own settings. */
export function sourceDigest() {
  const hash = createHash('sha256');
  for (const file of ['tsconfig.json', 'tsconfig.build.json'])
    hash
      .update(`${file}\0`)
      .update(readFileSync(join(root, file)))
      .update('\0');
  for (const rel of [...compiledSources(), ...assetFiles()])
    hash
      .update(`src/${rel.split(sep).join('/')}\0`)
      .update(readFileSync(join(root, 'src', rel)))
      .update('\0');
  return hash.digest('hex');
}

/** The digest dist/ was built from; null when it was never built. */
export function builtDigest() {
  return existsSync(DIGEST_FILE) ? readFileSync(DIGEST_FILE, 'utf8').trim() : null;
}

/** The viewer's browser bundle (scripts/build-viewer.mjs) shares dist/viewer/ with compiled modules. */
const BUNDLE = new Set(['viewer.js', 'viewer.css', 'dashboard.js', 'dashboard.css'].map((f) => join('viewer', f)));

/** Compiled files whose source is gone (a module deleted or renamed): tsc never removes them. */
function removeOrphans() {
  const wanted = new Set(compiledSources().map((rel) => rel.replace(/\.ts$/, '')));
  for (const path of walk(DIST)) {
    const rel = relative(DIST, path);
    const match = /^(.*)\.js(\.map)?$/.exec(rel);
    if (match && !BUNDLE.has(rel) && !BUNDLE.has(`${match[1]}.js`) && !wanted.has(match[1])) rmSync(path);
  }
}

/** Builds dist/ unless it is up to date; returns what it did. Throws when tsc fails. */
export function buildCli({ force = false, log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  const digest = sourceDigest();
  if (
    !force &&
    builtDigest() === digest &&
    existsSync(join(DIST, 'cli', 'bin.js')) &&
    existsSync(join(DIST, 'schemas', 'config.schema.json'))
  )
    return 'up to date';
  const started = performance.now();
  const result = spawnSync(process.execPath, [TSC, '-p', join(root, 'tsconfig.build.json')], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0)
    throw new Error(`tsc -p tsconfig.build.json failed (exit ${result.status ?? result.signal})`);
  removeOrphans();
  for (const rel of assetFiles()) {
    mkdirSync(dirname(join(DIST, rel)), { recursive: true });
    copyFileSync(join(root, 'src', rel), join(DIST, rel));
  }
  // The JSON Schemas `chatbench init` points files at, made from the compiled options (scripts/build-schemas.mjs).
  const schemas = spawnSync(process.execPath, [join(root, 'scripts', 'build-schemas.mjs')], {
    cwd: root,
    stdio: 'inherit',
  });
  if (schemas.status !== 0)
    throw new Error(`scripts/build-schemas.mjs failed (exit ${schemas.status ?? schemas.signal})`);
  writeFileSync(DIGEST_FILE, `${digest}\n`);
  log(`chatbench: compiled src/ to dist/ in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return 'built';
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const what = buildCli({ force: process.argv.includes('--force') });
    if (what === 'up to date') console.log('chatbench: dist/ is up to date with src/');
  } catch (error) {
    console.error(`chatbench: ${error.message}`);
    process.exitCode = 1;
  }
}
