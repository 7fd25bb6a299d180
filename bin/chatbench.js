#!/usr/bin/env node
// Runs the TypeScript sources directly through tsx, so `npx chatbench` works right after `npm ci`
// with no build step to forget.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/bin.ts');
