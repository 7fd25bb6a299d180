/**
 * @module api
 * The chat service's contract as zod schemas: the one thing the client and the simulator share.
 */
export * from './common.js';
export * from './send-message.js';
export * from './documents.js';
export * from './stream.js';
export * from './open-urls.js';
export * from './projects.js';
export * from './error-bodies.js';
export * from './releases.js';
export * from './judge.js';
export * from './health.js';
export * from './chat-setup.js';
