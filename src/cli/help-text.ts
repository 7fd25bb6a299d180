/**
 * @module cli/help-text
 * Text every command's --help shares, written once: the exit codes (the README's table) and the
 * duration syntax, which each duration option's description points to.
 */

export const EXIT_CODES_HELP =
  'Exit codes: 0 ok · 1 a gate or SLO failed · 2 bad input or usage (nothing was sent) · 3 the run could not be carried out (target unreachable, every request refused) · 4 internal error (a bug) · 130 interrupted (reports for what finished were written).';

export const DURATION_HELP =
  'Durations (every option marked "duration"): a number with a unit, ms, s, m or h, or several (1m30s); a bare number is seconds. E.g. 500ms, 60s, 2m, 1h.';
