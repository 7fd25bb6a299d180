/**
 * @module records/encoding
 * The tokenizer encodings a set may name for counting its answers' output tokens (the sets file's
 * `encoding`, kept in manifest.json): the names only, so that the sets file and the manifest can
 * check them without loading a tokenizer (tokens/encodings counts with them).
 */
import { z } from 'zod';

export const ENCODINGS = ['o200k_base', 'o200k_harmony', 'cl100k_base', 'p50k_base', 'p50k_edit', 'r50k_base'] as const;
export const EncodingSchema = z.enum(ENCODINGS);
export type Encoding = z.infer<typeof EncodingSchema>;
/** GPT-4o's and later OpenAI models' encoding: the default, an estimate for other models. */
export const DEFAULT_ENCODING: Encoding = 'o200k_base';
