/**
 * The service's own load-test kit (loadtest/ in onyx-dot-app/onyx) against the simulator (issue 25
 * §3): every user class, one user each (test/kit/all_classes.py), headless for 8 s, must make
 * requests and fail none. Needs Debian's python3-locust (/usr/bin/python3, with a stand-in for
 * prometheus_client: test/kit/shim) and the mirrored service repository to extract the kit from;
 * skips saying which is missing. docs/onyx-loadtest-kit.md tells how to run it by hand.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startSim } from '../helpers/start-sim.js';

const MIRROR = process.env.CHATBENCH_ONYX_MIRROR ?? '/work/.mirror/onyx-dot-app+onyx/repo';
const PYTHON = '/usr/bin/python3';
const KIT_DIR = fileURLToPath(new URL('../kit/', import.meta.url));

function missing(): string | null {
  if (!existsSync(PYTHON)) return `${PYTHON} is absent`;
  try {
    execFileSync(PYTHON, ['-c', 'import locust'], { stdio: 'ignore', timeout: 20_000 });
  } catch {
    return 'python3-locust is not installed (apt-get install python3-locust)';
  }
  if (!existsSync(MIRROR)) return `the Onyx repository mirror is absent (${MIRROR}; set CHATBENCH_ONYX_MIRROR)`;
  return null;
}
const why = missing();

/** Every class and the rows that prove it ran a whole turn (or probe). */
const CLASSES: Record<string, string> = {
  BasicChatUser: 'chat:total_turn',
  ChatWithSearchUser: 'search:total_turn',
  MultiToolUser: 'multitool:total_turn',
  DeepResearchUser: 'dr:first_answer_token',
  LongConversationUser: 'longconv:total_turn',
  DisconnectUser: 'disconnect:disconnected',
  CompressionUser: 'compress:total_turn',
  FileAttachmentUser: 'fileattach:upload',
  ThreadHogUser: 'hog:total_turn',
  HealthProbeUser: 'HEALTH:probe',
};

describe.skipIf(why !== null)(
  `the Onyx load-test kit against chatbench serve${why === null ? '' : ` (skipped: ${why})`}`,
  () => {
    it('runs every user class with requests and 0 failures', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'chatbench-kit-'));
      execFileSync('sh', ['-c', `git -C "${MIRROR}" archive HEAD loadtest | tar -x -C "${dir}"`]);
      const kit = join(dir, 'loadtest');
      const sim = await startSim({ config: { chat: { time_scale: 0.02 } } });
      const host = sim.baseUrl.replace(/\/api$/, '');
      const csv = join(dir, 'run');
      const env = {
        ...process.env,
        PYTHONPATH: `${kit}:${join(KIT_DIR, 'shim')}`,
        ONYX_API_KEY: 'onyx_pat_chatbench_demo',
        ONYX_WAIT_SECONDS: '0.2',
        ONYX_DR_WAIT_SECONDS: '0.2',
        ONYX_HOG_WAIT_SECONDS: '0.2',
        ONYX_HEALTH_PATH: '/api/health',
        ONYX_HEALTH_INTERVAL: '0.5',
        ONYX_SESSION_TURNS: '3',
        ONYX_FILE_KB: '64',
        LOCUST_PROMETHEUS_PORT: '0',
      };
      const args = [
        '-m',
        'locust',
        '-f',
        join(KIT_DIR, 'all_classes.py'),
        '--headless',
        '-u',
        '10',
        '-r',
        '10',
        '-t',
        '8s',
        '-H',
        host,
        '--csv',
        csv,
        '--only-summary',
        '--stop-timeout',
        '3',
      ];
      const code = await new Promise<number | null>((resolve) => {
        const child = spawn(PYTHON, args, { cwd: kit, env, stdio: 'ignore' });
        const guard = setTimeout(() => child.kill('SIGKILL'), 40_000);
        child.on('exit', (c) => {
          clearTimeout(guard);
          resolve(c);
        });
      });
      const rows = readFileSync(`${csv}_stats.csv`, 'utf8')
        .trim()
        .split('\n')
        .slice(1)
        .map((line) => line.split(','));
      const byName = new Map(
        rows.map(([, name, requests, failures]) => [
          name ?? '',
          { requests: Number(requests), failures: Number(failures) },
        ]),
      );
      expect(byName.get('Aggregated')?.failures, `locust exited ${code}`).toBe(0);
      for (const [cls, row] of Object.entries(CLASSES))
        expect(byName.get(row)?.requests ?? 0, `${cls}: ${row}`).toBeGreaterThan(0);
      expect(code).toBe(0);
    }, 60_000);
  },
);
