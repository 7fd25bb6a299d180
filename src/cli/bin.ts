import { nodeIo, quietOnClosedPipe } from './io.js';
import { capYoungGeneration } from '../runner/young-generation.js';

const pipeClosed = quietOnClosedPipe([process.stdout, process.stderr]);

// The arguments after `node script` (what yargs' hideBin returns outside Electron, without loading yargs).
const argv = process.argv.slice(2);
if (argv.length === 1 && argv[0] === '--version') {
  // The one answer that needs nothing else: printed before the parser and the commands are loaded.
  const { VERSION } = await import('./version.js');
  process.stdout.write(`${VERSION}\n`);
} else {
  // Before the commands load (loading them alone grows the young generation to 16 MiB semi-spaces).
  // Not for the simulator, and not when the user set the semi-spaces (node --max-semi-space-size).
  const userSet = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((a) => a.includes('max-semi-space-size'));
  if (argv[0] !== 'serve' && !userSet) capYoungGeneration();
  const { main } = await import('./main.js');
  const code = await main(argv, nodeIo());
  process.exitCode = pipeClosed() ? 0 : code;
}
