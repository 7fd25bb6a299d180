// Your own checks (`chatbench eval --checks examples/checks.mjs`): each export is a figure, computed
// per answer from what the service returned; `--pass "cites_policy >= 1"` makes it part of the pass rule.
export const cites_policy = (ctx) => ctx.cited_documents.some((d) => d.title?.toLowerCase().includes('policy'));
