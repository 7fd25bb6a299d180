/**
 * @module api/chat-setup
 * What a client does before a turn, as the service's own load-test kit does it (read at
 * v4.7.0-cloud.1): `POST {base}/chat/create-chat-session` (onyx/server/query_and_chat/chat_backend.py,
 * `ChatSessionCreationRequest` → `CreateChatSessionID`) and `POST {base}/user/projects/file/upload`
 * (onyx/server/features/projects/api.py: multipart `files`, → `CategorizedFilesSnapshot`), whose
 * user files a message then attaches by `file_descriptors`.
 */
import { z } from 'zod';
import { ChatFileTypeSchema } from './common.js';

export const CREATE_CHAT_SESSION_PATH = '/chat/create-chat-session';
export const FILE_UPLOAD_PATH = '/user/projects/file/upload';

export const CreateChatSessionRequestSchema = z.object({
  persona_id: z.number().int().default(0),
  description: z.string().nullish(),
  project_id: z.number().int().nullish(),
  incognito: z.boolean().default(false),
  incognito_session_id: z.uuid().nullish(),
});

/** `CreateChatSessionID`; `incognito` echoes the session's mode (v4.6+). */
export const CreateChatSessionResponseSchema = z.looseObject({
  chat_session_id: z.uuid(),
  incognito: z.boolean().optional(),
});

/** `UserFileSnapshot`: `id` is the user file's uuid, `file_id` the stored file's id. */
export const UserFileSnapshotSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  file_id: z.string(),
  chat_file_type: ChatFileTypeSchema,
  status: z.string(),
  token_count: z.number().int().nullable(),
});
export type UserFileSnapshot = z.infer<typeof UserFileSnapshotSchema>;

export const FileUploadResponseSchema = z.looseObject({
  user_files: z.array(UserFileSnapshotSchema),
  rejected_files: z.array(z.looseObject({ file_name: z.string(), reason: z.string() })),
});
