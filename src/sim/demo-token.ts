/**
 * @module sim/demo-token
 * The token the simulator accepts out of the box (sim/auth's default tokens). Apart from sim/auth
 * (which loads zod) so that `serve`'s flags, whose help prints it, stay light: `--help` loads them.
 */
export const DEMO_TOKEN = 'onyx_pat_chatbench_demo';
