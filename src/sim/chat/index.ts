/**
 * @module sim/chat
 * The chat engine the simulator's server mounts on POST {base}/chat/send-chat-message.
 */
export { createChatEngine, type ChatEngine, type ChatEngineOptions, type ChatRequestContext } from './engine.js';
export {
  ChatConfigSchema,
  FAULT_KINDS,
  FaultKindSchema,
  type ChatConfig,
  type ChatConfigInput,
  type FaultKind,
  type FaultTrigger,
} from './config.js';
export type { ChatStats } from './stats.js';
