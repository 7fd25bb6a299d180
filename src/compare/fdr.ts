/**
 * @module compare/fdr
 * Multiple comparisons (docs/reference/metrics.md "Comparing runs: how many changes are real"). A comparison tests
 * some twenty figures × every group at once; at 95% each, about one unchanged figure in twenty
 * would look changed by chance. The list of significant changes is therefore the Benjamini–Hochberg
 * procedure at q = 0.05 over every test the comparison made: among the changes it reports, the
 * expected share of false ones is at most 5%. BH holds for independent tests and under positive
 * dependence (the scores of one group move together), which is what a comparison's tests are.
 */

/** The false discovery rate the list of significant changes is held to. */
export const FDR_Q = 0.05;

/**
 * Benjamini–Hochberg adjusted p-values ("q-values"), in the input's order: for the i-th smallest
 * of m p-values, min over j ≥ i of p_(j) · m / j, capped at 1. A test is a discovery at level q
 * exactly when its adjusted value is ≤ q. Ties keep their order; an empty list gives [].
 */
export function benjaminiHochberg(pValues: readonly number[]): number[] {
  const m = pValues.length;
  const order = pValues.map((p, i) => [p, i] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const adjusted = new Array<number>(m);
  let running = 1;
  for (let rank = m; rank >= 1; rank -= 1) {
    const [p, index] = order[rank - 1]!;
    running = Math.min(running, (p * m) / rank);
    adjusted[index] = Math.min(1, running);
  }
  return adjusted;
}
