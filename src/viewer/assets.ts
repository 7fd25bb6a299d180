/**
 * @module viewer/assets
 * The browser app's bundle (dist/viewer/viewer.js and viewer.css), built by `npm run
 * build:viewer` (npm ci runs it through `prepare`). Found from the package's root, so the same
 * code works run from src/ through tsx or compiled elsewhere.
 */
import { readFile } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RunError } from '../errors.js';

export interface ViewerBundle {
  readonly js: string;
  readonly css: string;
}

export const BUNDLE_FILES = { js: 'viewer.js', css: 'viewer.css' } as const;

/** The nearest directory above this module holding chatbench's package.json. */
export function packageRoot(from: string = fileURLToPath(import.meta.url)): string {
  let dir = dirname(from);
  for (let i = 0; i < 20; i += 1) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && /"name":\s*"chatbench"/.test(readFileSync(manifest, 'utf8'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  throw new RunError(`cannot find chatbench's package.json above ${from}`);
}

/** Where `npm run build:viewer` writes the bundle. */
export const defaultBundleDir = (): string => join(packageRoot(), 'dist', 'viewer');

/** Reads the bundle (`app`: the viewer's, or `--dashboard`'s); RunError with one line saying how to build it when it is missing. */
export async function readViewerBundle(
  dir: string = defaultBundleDir(),
  app: 'viewer' | 'dashboard' = 'viewer',
): Promise<ViewerBundle> {
  try {
    const [js, css] = await Promise.all([
      readFile(join(dir, `${app}.js`), 'utf8'),
      readFile(join(dir, `${app}.css`), 'utf8'),
    ]);
    return { js, css };
  } catch (error) {
    throw new RunError(
      `the ${app}'s bundle is missing (${join(dir, `${app}.js`)}): build it with \`npm run build:viewer\` (npm ci builds it)`,
      { cause: error },
    );
  }
}
