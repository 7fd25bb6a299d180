import { hideBin } from 'yargs/helpers';
import { nodeIo } from './io.js';
import { main } from './main.js';

process.exitCode = await main(hideBin(process.argv), nodeIo());
