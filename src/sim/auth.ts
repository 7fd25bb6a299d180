/**
 * @module sim/auth
 * Bearer-token authentication and scope checks, as the deployed service applies them
 * (docs/reference/wire-format.md "Auth"): a missing or unknown token is a 403 (not 401); a token without the
 * operation's scope is a 403 with INSUFFICIENT_PERMISSIONS; `basic` implies the three others and
 * `write:chat` implies `read:chat`; a token with no scope list is unrestricted.
 */
import { z } from 'zod';
import { DEMO_TOKEN } from './demo-token.js';

export const SCOPES = ['basic', 'read:search', 'read:chat', 'write:chat'] as const;
export const ScopeSchema = z.enum(SCOPES);
export type Scope = z.infer<typeof ScopeSchema>;

/** One configured token. No `scopes` = unrestricted (a signed-in user's own credentials). */
export const TokenEntrySchema = z.strictObject({
  token: z.string().min(1, 'a token must not be empty').regex(/^\S*$/, 'a token must not contain whitespace'),
  user_id: z.string().min(1, 'user_id must not be empty'),
  scopes: z.array(ScopeSchema).optional(),
});
export type TokenEntry = z.infer<typeof TokenEntrySchema>;

/** The user id a chat request runs as when anonymous access lets a bad or missing token through. */
export const ANONYMOUS_USER_ID = 'anonymous';
export { DEMO_TOKEN };
export const DEMO_USER_ID = 'demo-user';
export const SECOND_USER_ID = 'second-user';

/**
 * The tokens a simulator has when its config names none: the unrestricted demo token (`demoToken`),
 * a `read:search`-only PAT and a `write:chat`-only PAT of the same user, and a second user's
 * unrestricted token (for project isolation).
 */
export function defaultTokens(demoToken: string = DEMO_TOKEN): TokenEntry[] {
  return [
    { token: demoToken, user_id: DEMO_USER_ID },
    { token: 'onyx_pat_chatbench_search_only', user_id: DEMO_USER_ID, scopes: ['read:search'] },
    { token: 'onyx_pat_chatbench_chat_only', user_id: DEMO_USER_ID, scopes: ['write:chat'] },
    { token: 'onyx_pat_chatbench_second_user', user_id: SECOND_USER_ID },
  ];
}

/** Who a request runs as. `token` is undefined for the anonymous user. */
export interface Principal {
  readonly userId: string;
  readonly token: string | undefined;
  readonly scopes: readonly Scope[] | undefined;
}

const IMPLIED: Readonly<Record<Scope, readonly Scope[]>> = {
  basic: ['basic', 'read:search', 'read:chat', 'write:chat'],
  'write:chat': ['write:chat', 'read:chat'],
  'read:chat': ['read:chat'],
  'read:search': ['read:search'],
};

/** True when `scopes` (undefined = unrestricted) grants `required`, directly or by implication. */
export function grants(scopes: readonly Scope[] | undefined, required: Scope): boolean {
  if (scopes === undefined) return true;
  return scopes.some((scope) => IMPLIED[scope].includes(required));
}

/** The value of a `Bearer` Authorization header (scheme case-insensitive), or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^\s*bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}

/** Looks tokens up by value. Later entries with the same value win, so a config can override a default. */
export function createAuthenticator(tokens: readonly TokenEntry[]) {
  const byValue = new Map(tokens.map((entry) => [entry.token, entry]));
  return {
    /** The principal of an Authorization header, or undefined when the token is missing or unknown. */
    authenticate(header: string | undefined): Principal | undefined {
      const value = bearerToken(header);
      const entry = value === undefined ? undefined : byValue.get(value);
      return entry && { userId: entry.user_id, token: entry.token, scopes: entry.scopes };
    },
  };
}
export type Authenticator = ReturnType<typeof createAuthenticator>;

/** The anonymous user: holds write:chat only, which is all anonymous access opens. */
export const ANONYMOUS_PRINCIPAL: Principal = { userId: ANONYMOUS_USER_ID, token: undefined, scopes: ['write:chat'] };
