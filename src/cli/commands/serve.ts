/**
 * @module cli/commands/serve
 * `chatbench serve`: runs the simulated chat service until SIGINT/SIGTERM, printing its base URL
 * and tokens so a script or a curl can use them at once.
 * Its flags and help; what it runs is cli/run/serve.ts, loaded only when it runs
 * (commands/index.ts).
 */
import type { Argv } from 'yargs';
import { DEMO_TOKEN } from '../../sim/demo-token.js';
import { defineFlags } from './define.js';

export interface ServeArgs {
  host: string;
  port: number;
  'sim-config': string | undefined;
  seed: number;
  token: string | undefined;
  'time-scale': number | undefined;
  'onyx-release': string | undefined;
}

/** `curl` of one operation, broken with `\\` so that every line pastes whole into a shell, at any width. */
const curl = (flags: string, path: string, body?: string) =>
  [
    `  curl ${flags} "$B/${path}" -H "Authorization: Bearer $T"${body === undefined ? '' : ' \\'}`,
    ...(body === undefined ? [] : ["    -H 'Content-Type: application/json' \\", `    -d '${body}'`]),
  ].join('\n');

const CURL_EXAMPLES = [
  'Each operation with curl, once B and T hold the base URL and a token it printed:',
  '  B=http://127.0.0.1:8080/api T=onyx_pat_chatbench_demo',
  '',
  '  # a streamed answer (newline-delimited JSON, as the deployed service sends)',
  curl('-sN', 'chat/send-chat-message', '{"message": "How many days of paid time off do I get?"}'),
  '  # a complete answer (ChatFullResponse)',
  curl('-s', 'chat/send-chat-message', '{"message": "How do I fail over the database?", "stream": false}'),
  '  # page content for URLs (corpus links and configured pages)',
  curl('-s', 'web-search/open-urls', '{"urls": ["https://status.northwind.example/"]}'),
  "  # replace project 1's instructions, then read them back",
  curl('-s', 'user/projects/1/instructions', '{"instructions": "Answer briefly."}'),
  curl('-s', 'user/projects/1/instructions'),
].join('\n');

export const flags = defineFlags<ServeArgs>({
  command: 'serve',
  describe: 'Run the simulated chat service (faithful to the deployed one on the wire) until interrupted',
  builder: (y: Argv) =>
    y
      .option('host', {
        type: 'string',
        default: '127.0.0.1',
        describe: 'interface to bind; 0.0.0.0 exposes it to the network',
      })
      .option('port', { type: 'number', default: 8080, describe: 'port to listen on (0 = any free port)' })
      .option('sim-config', {
        alias: 'c',
        type: 'string',
        describe: 'simulator config file (JSON); see examples/sim.json (formerly --config)',
      })
      .option('seed', {
        type: 'number',
        default: 1,
        describe: 'seed of every random choice: the same seed gives the same answers',
      })
      .option('token', {
        type: 'string',
        describe: `the unrestricted demo token (default: $CHATBENCH_SIM_TOKEN, else ${DEMO_TOKEN})`,
      })
      .option('time-scale', {
        type: 'number',
        describe: 'multiply every simulated delay (0.1 = ten times faster; default from the config, 1)',
      })
      .option('onyx-release', {
        type: 'string',
        describe:
          'speak like this Onyx release, 2.7 to 4.8 (e.g. 4.7 or 4.5.2; default the newest); see docs/releases.md',
      })
      .example('$0 serve', 'serve on http://127.0.0.1:8080/api with the default tokens')
      .example(
        '$0 serve --port 0 --sim-config examples/sim.json --seed 7',
        'any free port, a config file, another seed',
      )
      .example(`CHATBENCH_SIM_TOKEN=onyx_pat_mine $0 serve`, 'choose the demo token in advance')
      .example(
        '$0 serve --onyx-release 3.1',
        'speak like an Onyx v3.1 deployment (no incognito, model_index null, llm_overrides ignored)',
      )
      .epilogue(CURL_EXAMPLES),
});
