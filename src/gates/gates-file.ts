/**
 * @module gates/gates-file
 * `--gates-file FILE`: gates kept in a JSON file, `{"gates": [...]}`, each entry either a gate string
 * or an object with the same parts. Every problem is reported at once, as `FILE: gates.N...`.
 * Pure: the app reads the file and passes the text.
 */
import { parseJsonText, zodProblems } from '../util/parse-json.js';
import { z } from 'zod';
import { InputError, UsageError } from '../errors.js';
import { LATENCY_STATS } from '../figures/catalogue.js';
import { ModeSchema } from '../records/record.js';
import { GateAgainstSchema, GateOperatorSchema, parseGate, type ExtraFigures, type Gate } from '../figures/grammar.js';

/** The object form of a gate; `against` defaults to "value". */
export const GateObjectSchema = z.strictObject({
  set: z.string().min(1).optional(),
  mode: ModeSchema.optional(),
  /** Only the conversation turns of this number. */
  turn: z.number().int().positive().optional(),
  figure: z.string().min(1),
  stat: z.enum(LATENCY_STATS).optional(),
  against: GateAgainstSchema.optional(),
  op: GateOperatorSchema,
  value: z.number(),
  significant: z.boolean().optional(),
});
export type GateObject = z.infer<typeof GateObjectSchema>;

/** The file's shape; each entry is checked on its own (GateEntrySchema) so a message names its fields. */
export const GatesFileSchema = z.strictObject({ gates: z.array(z.unknown()) });
const GateEntrySchema = z.union([z.string().min(1), z.looseObject({})]);

/** The gate string an object stands for, so both forms go through the one parser. */
export function gateObjectText(g: GateObject): string {
  return [
    g.set === undefined ? '' : `set:${g.set}`,
    g.mode === undefined ? '' : `mode:${g.mode}`,
    g.turn === undefined ? '' : `turn:${g.turn}`,
    g.stat === undefined ? g.figure : `${g.figure}.${g.stat}`,
    g.against === undefined || g.against === 'value' ? '' : g.against,
    g.op,
    String(g.value),
    g.significant ? 'significant' : '',
  ]
    .filter((part) => part !== '')
    .join(' ');
}

/** Parses a gates file's text. Throws InputError listing every problem, each `file: gates.N: ...`. */
export function parseGatesFile(text: string, file: string, extraFigures: ExtraFigures = {}): Gate[] {
  const parsed = parseJsonText(text, file, GatesFileSchema, {
    hint: '{"gates": ["citation_recall >= 0.8", {"figure": "ttfp_ms", "stat": "p95", "against": "ratio", "op": "<=", "value": 1.2}]}',
  });
  const gates: Gate[] = [];
  const problems: string[] = [];
  const issues = (error: z.ZodError, index: number) => zodProblems(file, error, ['gates', index]);
  parsed.gates.forEach((raw, index) => {
    const kind = GateEntrySchema.safeParse(raw);
    if (!kind.success) return void problems.push(`${file}: gates.${index}: expected a gate string or a gate object`);
    const object = typeof kind.data === 'string' ? undefined : GateObjectSchema.safeParse(kind.data);
    if (object !== undefined && !object.success) return void problems.push(...issues(object.error, index));
    const gateText = object === undefined ? (kind.data as string) : gateObjectText(object.data);
    try {
      gates.push(parseGate(gateText, `${file}: gates.${index} "${gateText}"`, extraFigures));
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      problems.push(error.message);
    }
  });
  if (problems.length > 0) throw new InputError(problems);
  return gates;
}
