#!/usr/bin/env node
// Runs the compiled CLI (dist/, built by `npm ci` through `prepare`, or `npm run build`) in this very
// process: no transpiler at start, and a signal sent to this process reaches the command itself (a
// `serve` killed here closes its port; nothing is left running). During development,
// `npm run build` after editing src/ (npm test does it), or run the sources with `npx tsx src/cli/bin.ts`.
import { existsSync } from 'node:fs';
import module from 'node:module';

// Node 22.1 and later keep V8's compiled code on disk (in the OS temp directory), so a start after the
// first skips compiling the modules it loads; Node 20 has no such cache and skips this.
module.enableCompileCache?.();

const entry = new URL('../dist/cli/bin.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write(
    'chatbench: the compiled CLI (dist/cli/bin.js) is missing: run `npm run build` (npm ci runs it) in the chatbench directory\n',
  );
  process.exitCode = 2;
} else {
  await import(entry.href);
}
