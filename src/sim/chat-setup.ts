/**
 * @module sim/chat-setup
 * `POST {base}/chat/create-chat-session` (write:chat, anonymous when enabled) and `POST
 * {base}/user/projects/file/upload` (basic) on the simulator, enough for the service's own
 * load-test kit (src/api/chat-setup.ts). A created session is empty; a message continues it with
 * `chat_session_id` and `parent_message_id` null. Uploaded files are kept per user (text only,
 * counted in tokens, at most `MAX_FILES` remembered); a message attaching them by `file_descriptors`
 * pays their tokens (at most `MAX_ATTACHED_TOKENS`) in its time to the first token as it pays its history's.
 */
import type { IncomingMessage } from 'node:http';
import { CreateChatSessionRequestSchema, type ChatFileType } from '../api/index.js';
import { ANONYMOUS_PRINCIPAL } from './auth.js';
import type { ChatEngine } from './chat/index.js';
import { countTokens } from './chat/sessions.js';
import { readBody, sendJson } from './http.js';
import { readValidBody } from './parse-body.js';
import type { ReleaseTraits } from './releases.js';
import { replyTooLarge, replyValidation } from './replies.js';
import type { RouteContext } from './route.js';
import { authorize } from './route.js';
import type { Rng } from './rng.js';

/** Uploaded files remembered (oldest forgotten first): a long load test must not grow memory. */
const MAX_FILES = 10_000;
/**
 * The most tokens a request's attachments cost (the simulator's choice): a file far larger than a
 * prompt (the kit uploads 512 KB) would otherwise add minutes to the first token.
 */
export const MAX_ATTACHED_TOKENS = 8_192;

interface StoredFile {
  readonly userId: string;
  readonly tokens: number;
}

/** The per-user store of uploaded files, by `file_id` and by user file id. */
export function createFileStore() {
  const files = new Map<string, StoredFile>();
  return {
    add(ids: readonly string[], file: StoredFile): void {
      for (const id of ids) {
        files.delete(id);
        files.set(id, file);
      }
      while (files.size > MAX_FILES) files.delete(files.keys().next().value as string);
    },
    /** Tokens of the user's files a request attaches; unknown ids and other users' files count nothing. */
    attachedTokens(
      userId: string,
      descriptors: ReadonlyArray<{ id: string; user_file_id?: string | null | undefined }>,
    ): number {
      let tokens = 0;
      for (const d of descriptors) {
        const file = files.get(d.id) ?? (d.user_file_id == null ? undefined : files.get(d.user_file_id));
        if (file?.userId === userId) tokens += file.tokens;
      }
      return Math.min(tokens, MAX_ATTACHED_TOKENS);
    },
  };
}
export type FileStore = ReturnType<typeof createFileStore>;

export function createChatSessionHandler(engine: ChatEngine, release: ReleaseTraits, anonymousChat: boolean) {
  return async (ctx: RouteContext): Promise<void> => {
    const principal = authorize(ctx, 'write:chat', anonymousChat ? ANONYMOUS_PRINCIPAL : undefined);
    if (principal === undefined) return;
    const body = await readValidBody(ctx.req, ctx.res, CreateChatSessionRequestSchema, ctx.body);
    if (body === undefined) return;
    const id = engine.createSession(principal.userId);
    sendJson(
      ctx.res,
      200,
      release.incognitoKey ? { chat_session_id: id, incognito: body.incognito } : { chat_session_id: id },
    );
  };
}

/** The service's `mime_type_to_chat_file_type`, for the types a text upload has. */
function chatFileType(mime: string): ChatFileType {
  const type = mime.split(';')[0]?.trim().toLowerCase() ?? '';
  if (type.startsWith('image/')) return 'image';
  if (type === 'text/csv' || type.includes('spreadsheet') || type.includes('excel')) return 'tabular';
  if (type === 'text/plain' || type === 'text/markdown' || type === '') return 'plain_text';
  return 'document';
}

/** Parses a multipart body with the platform's own parser (undici's Request). */
async function formFiles(req: IncomingMessage, text: Buffer): Promise<File[] | undefined> {
  try {
    const form = await new Request('http://sim.invalid/', {
      method: 'POST',
      headers: { 'content-type': req.headers['content-type'] ?? '' },
      body: new Uint8Array(text),
    }).formData();
    return form.getAll('files').filter((v): v is File => typeof v !== 'string');
  } catch {
    return undefined;
  }
}

export function fileUploadHandler(store: FileStore, rng: () => Rng, now: () => number) {
  return async (ctx: RouteContext): Promise<void> => {
    const principal = authorize(ctx, 'basic');
    if (principal === undefined) return;
    const body = await readBody(ctx.req, ctx.body.maxBodyBytes);
    if (body.kind === 'aborted') return;
    if (body.kind === 'too_large') return replyTooLarge(ctx.res, ctx.body.maxBodyBytes);
    const files = await formFiles(ctx.req, body.bytes);
    if (files === undefined || files.length === 0) {
      // FastAPI's answer to a form without the required `files` field.
      return replyValidation(
        ctx.res,
        [{ type: 'missing', loc: ['body', 'files'], msg: 'Field required', input: null }],
        ctx.body.validationShape,
      );
    }
    const createdAt = new Date(now()).toISOString().replace('Z', '+00:00');
    const snapshots = [];
    for (const file of files) {
      const r = rng();
      const id = r.uuid();
      const fileId = r.uuid();
      const tokens = countTokens(await file.text());
      store.add([id, fileId], { userId: principal.userId, tokens });
      snapshots.push({
        id,
        temp_id: null,
        name: file.name,
        project_id: null,
        user_id: principal.userId,
        file_id: fileId,
        created_at: createdAt,
        status: 'PROCESSING',
        last_accessed_at: createdAt,
        file_type: file.type === '' ? null : file.type,
        chat_file_type: chatFileType(file.type),
        token_count: tokens,
        chunk_count: null,
      });
    }
    sendJson(ctx.res, 200, { user_files: snapshots, rejected_files: [] });
  };
}
