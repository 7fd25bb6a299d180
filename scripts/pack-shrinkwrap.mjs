#!/usr/bin/env node
// `npm pack` / `npm publish` (prepack, then postpack with --remove): the package ships an
// npm-shrinkwrap.json copied from package-lock.json, so an install of the tarball gets the very
// dependency versions chatbench's tests ran with, and resolves them from the lock's URLs and
// integrity, from the npm cache when they are there (`npm i --prefer-offline ./chatbench-x.y.z.tgz`;
// without it npm asks the registry for every dependency's version list; with it, only for
// @types/node, which protobufjs asks for with a range). Removed after packing, so the
// clone keeps one lock file (package-lock.json) for development; .gitignore lists the copy.
import { copyFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const shrinkwrap = join(root, 'npm-shrinkwrap.json');
if (process.argv.includes('--remove')) rmSync(shrinkwrap, { force: true });
else copyFileSync(join(root, 'package-lock.json'), shrinkwrap);
