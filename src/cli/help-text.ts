/**
 * @module cli/help-text
 * Text every command's --help shares, written once: the exit codes (docs/reference/exit-codes.md) and the
 * duration syntax, which each duration option's description points to.
 */

export const EXIT_CODES_HELP =
  'Exit codes: 0 ok · 1 a gate failed or an SLO was broken (capacity: no step held its SLOs) · 2 bad input or usage (nothing was sent) · 3 the run could not be carried out (target unreachable, every request refused) · 4 internal error (a bug) · 130 interrupted (Ctrl-C), 143 SIGTERM, 129 SIGHUP (reports for what finished were written).';

export const DURATION_HELP =
  'Durations (every option marked "duration"): a number with a unit, ms, s, m or h, or several (1m30s); a bare number is seconds. E.g. 500ms, 60s, 2m, 1h.';

/**
 * Options that take a duration, wherever they appear: their --help says so (and the command's help
 * then states the syntax). Kept here, by name, so a command adding one needs no help code.
 */
export const DURATION_OPTIONS: ReadonlySet<string> = new Set([
  'duration',
  'timeout',
  'max-duration',
  'grace',
  'warmup',
  'cooldown',
  'step-duration',
  'step-warmup',
  'checks-timeout',
  'checks-total-timeout',
  'version-timeout',
  'judge-timeout',
  'health-interval',
]);

/**
 * What an option shared by several commands means, for a command that declares it without a
 * description (capacity reuses load's run options): one text per option name.
 */
export const SHARED_OPTION_HELP: Readonly<Record<string, string>> = {
  operation: 'What each request does: chat (send-chat-message) or open-urls',
  mode: 'Streamed requests or full (stream=false) ones',
  'question-order': 'Questions in dataset order (cycling) or drawn at random (seeded)',
  arrival: 'Open model: evenly spaced or Poisson arrivals',
  retries: 'Retry network errors, 5xx and streaming errors marked is_retryable this many times per request',
  'retry-429': 'Retry 429s too, honouring Retry-After',
  grace: 'On Ctrl-C, how long in-flight requests may finish',
  'max-steps': 'At most this many steps (load runs) in the whole search',
};

/** `describe` as --help shows it: the shared text when the command gave none, and "(a duration)" for duration options. */
export function describeOption(key: string, describe: string | undefined): string | undefined {
  const text = describe ?? SHARED_OPTION_HELP[key];
  if (text === undefined || !DURATION_OPTIONS.has(key) || /\bduration\b/.test(text)) return text;
  return `${text} (a duration)`;
}
