// vitest's global setup: tests that spawn bin/chatbench.js run dist/, so dist/ is brought up to date
// with src/ first (nothing is compiled when its recorded digest matches the sources: a few ms).
import { buildCli } from '../scripts/build-cli.mjs';

export default function setup() {
  buildCli();
}
