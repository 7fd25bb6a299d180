/**
 * @module sim/chat/match
 * A test on a message's text, as fault triggers and tools write it: `/regex/flags`, or else a
 * plain substring.
 */

/** A `/regex/flags` string; anything else is a plain substring. */
export const REGEX_FORM = /^\/(.+)\/([a-z]*)$/s;

/** Compiles a `match` into a test on the message text; throws on an invalid regular expression. */
export function triggerMatcher(match: string): (message: string) => boolean {
  const regex = REGEX_FORM.exec(match);
  if (regex === null) return (message) => message.includes(match);
  const re = new RegExp(regex[1] ?? '', (regex[2] ?? '').replace('g', ''));
  return (message) => re.test(message);
}
