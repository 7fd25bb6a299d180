/**
 * @module ci/github/workflow-commands
 * GitHub Actions workflow commands (`::error title=…::message`, read from a step's stdout) for a
 * run's failed gates and SLOs. Pure. Escaping as the runner's own toolkit does (@actions/core
 * `escapeData`/`escapeProperty`): a message keeps `%`, CR and LF as %25, %0D, %0A; a property also
 * `:` and `,`; otherwise a newline in a gate's text would end the command early.
 */
import type { Verdict } from '../../verdict/index.js';

const escapeData = (text: string): string =>
  text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
const escapeProperty = (text: string): string => escapeData(text).replaceAll(':', '%3A').replaceAll(',', '%2C');

/** One `::error` line per failed gate or SLO of the verdict (those that count), as the verdict words them. */
export function failureAnnotations(verdict: Verdict): string[] {
  return verdict.reasons
    .filter((reason) => !reason.passed && reason.counted)
    .map(
      (reason) =>
        `::error title=${escapeProperty(`chatbench ${reason.kind === 'slo' ? 'SLO' : 'gate'} failed: ${reason.text}`)}::${escapeData(`${reason.text}: ${reason.detail}`)}`,
    );
}
