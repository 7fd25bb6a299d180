/**
 * @module api/sim-judge
 * The model name the simulator's rule-based judge reports when asked for none: the judge flags use
 * it as `--judge sim`'s default model, the reports tell its verdicts from a model's by it. Apart from
 * api/judge (whose schemas load zod) so that the flags' module stays light: `--help` loads it.
 */
export const SIM_JUDGE_MODEL = 'chatbench-sim-judge';
