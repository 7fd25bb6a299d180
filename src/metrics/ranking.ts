/**
 * @module metrics/ranking
 * Ranking metrics of one ranked list of document ids against the expected set, exactly as
 * docs/reference/metrics.md "Scoring cited documents" defines them (checked against its trec_eval
 * vectors in ranking.test.ts). Used twice per answer: over the cited list and over top_documents.
 */
import { CUTOFFS, type RankingScores } from '../records/scores.js';

/**
 * Every ranking metric of `ranked` (R, already trimmed and de-duplicated) against `expected` (E),
 * for k in CUTOFFS:
 * - hit@k = 1 if any of the first k is expected; precision@k = hits@k / k (missing ranks are
 *   non-relevant); recall@k = hits@k / m;
 * - AP@k = Σ_{i ≤ k} (hits@i / i)·rel_i / m — divided by all m expected, not min(m, k), as trec_eval;
 * - nDCG@k = Σ_{i ≤ k} rel_i / log2(i+1), over the ideal Σ_{i ≤ min(m,k)} 1 / log2(i+1);
 * - reciprocal_rank = 1 / rank of the first expected document, 0 when none is.
 * N/A: m = 0 (nothing expected) → every metric null. n = 0 (empty list) → every metric 0.
 */
export function rankingScores(ranked: readonly string[], expected: Iterable<string>): RankingScores {
  const expectedSet = new Set(expected);
  const m = expectedSet.size;
  // Every key there already, all null (N/A), with fast properties: see TEMPLATE.
  const scores: Record<string, number | null> = { ...TEMPLATE };
  if (m === 0) return scores as RankingScores;
  const relevant = ranked.map((id) => expectedSet.has(id));
  const firstHit = relevant.indexOf(true);
  scores.reciprocal_rank = firstHit === -1 ? 0 : 1 / (firstHit + 1);
  for (const keys of KEYS) {
    const k = keys.k;
    let hits = 0;
    let precisionSum = 0;
    let dcg = 0;
    for (let i = 0; i < Math.min(k, relevant.length); i += 1) {
      if (!relevant[i]) continue;
      hits += 1;
      precisionSum += hits / (i + 1);
      dcg += 1 / Math.log2(i + 2);
    }
    scores[keys.hit] = hits > 0 ? 1 : 0;
    scores[keys.precision] = hits / k;
    scores[keys.recall] = hits / m;
    scores[keys.ap] = precisionSum / m;
    scores[keys.ndcg] = dcg / idealDcg(Math.min(m, k));
  }
  // The keys are exactly RankingScoresSchema's: reciprocal_rank plus every prefix × CUTOFFS.
  return scores as RankingScores;
}

/** Each cutoff's key names, built once (every answer is ranked twice). */
const KEYS = CUTOFFS.map((k) => ({
  k,
  hit: `hit_at_${k}`,
  precision: `precision_at_${k}`,
  recall: `recall_at_${k}`,
  ap: `ap_at_${k}`,
  ndcg: `ndcg_at_${k}`,
}));

/**
 * The metrics' keys in their order (reciprocal_rank, then each cutoff's), all null, as an object
 * with fast properties (JSON.parse builds one): each call copies it and sets keys it has. Adding the
 * 21 keys one by one to `{}` made a dictionary-mode object (metrics/score.ts, SCORES_TEMPLATE).
 */
const TEMPLATE: Readonly<Record<string, null>> = JSON.parse(
  JSON.stringify(
    Object.fromEntries(
      ['reciprocal_rank', ...KEYS.flatMap((k) => [k.hit, k.precision, k.recall, k.ap, k.ndcg])].map((key) => [
        key,
        null,
      ]),
    ),
  ),
) as Record<string, null>;

/** Σ_{i ≤ count} 1 / log2(i+1): the DCG of a list whose first `count` documents are all relevant. */
function idealDcg(count: number): number {
  let sum = 0;
  for (let i = 0; i < count; i += 1) sum += 1 / Math.log2(i + 2);
  return sum;
}
