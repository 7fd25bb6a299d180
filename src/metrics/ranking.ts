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
  // Every key there already, all null (N/A), with fast properties: see TEMPLATE.
  const scores: Record<string, number | null> = { ...TEMPLATE };
  writeRankingScores(scores, RANKING_NAMES, ranked, new Set(expected));
  // The keys are exactly RankingScoresSchema's: reciprocal_rank plus every prefix × CUTOFFS.
  return scores as RankingScores;
}

/** The key names one block of ranking metrics is written under: rankingScores' own, or with a prefix. */
export interface RankingNames {
  readonly reciprocal_rank: string;
  readonly cutoffs: ReadonlyArray<{
    readonly k: number;
    readonly hit: string;
    readonly precision: string;
    readonly recall: string;
    readonly ap: string;
    readonly ndcg: string;
  }>;
}

/** rankingScores' key names with `prefix` before each (score.ts writes the `retrieval_` block under them). */
export function rankingNames(prefix: string): RankingNames {
  return {
    reciprocal_rank: `${prefix}reciprocal_rank`,
    cutoffs: CUTOFFS.map((k) => ({
      k,
      hit: `${prefix}hit_at_${k}`,
      precision: `${prefix}precision_at_${k}`,
      recall: `${prefix}recall_at_${k}`,
      ap: `${prefix}ap_at_${k}`,
      ndcg: `${prefix}ndcg_at_${k}`,
    })),
  };
}

/** Each cutoff's key names, built once (every answer is ranked twice). */
const RANKING_NAMES = rankingNames('');

/**
 * rankingScores' metrics written into `out` under `names` (every one of them set), against the
 * expected ids as a set: score.ts writes both blocks of an answer's scores straight into the scores
 * object, without an object per block to copy from nor the expected set built again per block.
 */
export function writeRankingScores(
  out: Record<string, number | null>,
  names: RankingNames,
  ranked: readonly string[],
  expected: ReadonlySet<string>,
): void {
  const m = expected.size;
  if (m === 0) {
    out[names.reciprocal_rank] = null;
    for (const keys of names.cutoffs) {
      out[keys.hit] = null;
      out[keys.precision] = null;
      out[keys.recall] = null;
      out[keys.ap] = null;
      out[keys.ndcg] = null;
    }
    return;
  }
  let firstHit = -1;
  for (let i = 0; i < ranked.length; i++) {
    if (expected.has(ranked[i]!)) {
      firstHit = i;
      break;
    }
  }
  out[names.reciprocal_rank] = firstHit === -1 ? 0 : 1 / (firstHit + 1);
  for (const keys of names.cutoffs) {
    const k = keys.k;
    let hits = 0;
    let precisionSum = 0;
    let dcg = 0;
    for (let i = firstHit === -1 ? k : firstHit; i < Math.min(k, ranked.length); i += 1) {
      if (!expected.has(ranked[i]!)) continue;
      hits += 1;
      precisionSum += hits / (i + 1);
      dcg += 1 / Math.log2(i + 2);
    }
    out[keys.hit] = hits > 0 ? 1 : 0;
    out[keys.precision] = hits / k;
    out[keys.recall] = hits / m;
    out[keys.ap] = precisionSum / m;
    out[keys.ndcg] = dcg / idealDcg(Math.min(m, k));
  }
}

/**
 * The metrics' keys in their order (reciprocal_rank, then each cutoff's), all null, as an object
 * with fast properties (JSON.parse builds one): each call copies it and sets keys it has. Adding the
 * 21 keys one by one to `{}` made a dictionary-mode object (metrics/score.ts, SCORES_TEMPLATE).
 */
const TEMPLATE: Readonly<Record<string, null>> = JSON.parse(
  JSON.stringify(
    Object.fromEntries(
      [
        RANKING_NAMES.reciprocal_rank,
        ...RANKING_NAMES.cutoffs.flatMap((k) => [k.hit, k.precision, k.recall, k.ap, k.ndcg]),
      ].map((key) => [key, null]),
    ),
  ),
) as Record<string, null>;

/** Σ_{i ≤ count} 1 / log2(i+1): the DCG of a list whose first `count` documents are all relevant. */
function idealDcg(count: number): number {
  let sum = 0;
  for (let i = 0; i < count; i += 1) sum += 1 / Math.log2(i + 2);
  return sum;
}
