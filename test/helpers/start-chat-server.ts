/**
 * The simulator's chat engine behind a bare HTTP server for one test, closed when the test finishes.
 */
import { onTestFinished } from 'vitest';
import { startChatServer, type ChatTestServer } from '../../src/sim/chat/fixtures/test-server.js';

export async function startChatServerForTest(...args: Parameters<typeof startChatServer>): Promise<ChatTestServer> {
  const server = await startChatServer(...args);
  onTestFinished(() => server.close());
  return server;
}
