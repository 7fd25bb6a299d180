#!/usr/bin/env node
// `npm run build:viewer` (run by `prepare`, so npm ci builds it): bundles the viewer's browser app,
// src/viewer/ui/main.tsx with Preact and its CSS, into dist/viewer/viewer.js and viewer.css with
// esbuild, and the live dashboard of `load --dashboard` (src/viewer/ui/dashboard/main.tsx) into
// dashboard.js and dashboard.css beside them. Everything the page needs is in those two files: no CDN, nothing fetched at run time.
// `buildViewer(dir)` is also what tests call to build a fresh bundle into a temporary directory.
import { build } from 'esbuild';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Builds the bundle into `outdir` (default dist/viewer); returns the files written. */
export async function buildViewer(outdir = join(root, 'dist', 'viewer')) {
  await build({
    entryPoints: {
      viewer: join(root, 'src', 'viewer', 'ui', 'main.tsx'),
      dashboard: join(root, 'src', 'viewer', 'ui', 'dashboard', 'main.tsx'),
    },
    outdir,
    bundle: true,
    minify: true,
    format: 'iife',
    platform: 'browser',
    // Chromium, Firefox and Safari of the last few years; nothing older is worth a polyfill here.
    target: ['chrome100', 'firefox100', 'safari15'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    legalComments: 'eof',
    charset: 'utf8',
    logLevel: 'warning',
  });
  return ['viewer.js', 'viewer.css', 'dashboard.js', 'dashboard.css'].map((f) => join(outdir, f));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const files = await buildViewer(process.argv[2] ? resolve(process.argv[2]) : undefined);
  console.log(`viewer bundle: ${files.join(', ')}`);
}
