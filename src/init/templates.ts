/**
 * @module init/templates
 * What `chatbench init` writes, as text (pure; cli/commands/init writes the files): a commented
 * config, a dataset template, every dataset column explained, and a sets file. The config and the
 * sets file name their JSON Schema (shipped in the package's dist/schemas/) in the comment that
 * editors' YAML language servers read, so keys complete and typos show as you type.
 */
import { KNOWN_COLUMNS } from '../dataset/index.js';
import { COLUMN_HELP } from './columns.js';

export const INIT_FILES = {
  config: 'chatbench.config.yaml',
  dataset: 'questions.csv',
  columns: 'questions.columns.md',
  sets: 'sets.yaml',
} as const;

/** Where the written files find their schemas: paths (or URLs) as the editor should read them. */
export interface SchemaRefs {
  readonly config: string;
  readonly sets: string;
}

export function configTemplate(refs: SchemaRefs): string {
  return `# yaml-language-server: $schema=${refs.config}
# chatbench's options, by their command-line names (\`chatbench <command> --help\` lists them).
# A key at the top level applies to every command that has the option; a command's section
# (eval:, load:) to that command only. CHATBENCH_<OPTION> variables and the command line win
# over this file. chatbench reads it from the working directory (or name one with --config).

# Your deployment: the API's base URL with its path prefix (Onyx: https://onyx.example.com/api),
# and a file holding the API token, one line (keep it out of git; or set CHATBENCH_TOKEN).
# base-url: https://onyx.example.com/api
# token-file: token.txt

# The questions (${INIT_FILES.columns} explains every column) and the model override sets.
dataset: ${INIT_FILES.dataset}
sets-file: ${INIT_FILES.sets}

eval:
  # stream: streamed answers (time to first token); full: stream=false; both.
  mode: stream
  # Requests in flight at once.
  concurrency: 4
  # Exit 1 when a figure misses its bar (CI): any figure of summary.json, e.g. citation_recall.
  gate:
    - "error_rate <= 0.05"

load:
  # A load run sends one set of sets.yaml.
  set-name: configured
  # Open model: arrivals per second for this long, whatever the responses.
  rate: 2
  duration: 30s
  # What a good response is (goodput); the run reports the share that met every SLO.
  slo:
    - "ttft_ms.p95<=5000"
`;
}

/** Three questions of the embedded simulator's corpus, so `eval --sim` runs the template as it is. */
const ROWS: readonly Partial<Record<(typeof KNOWN_COLUMNS)[number], string>>[] = [
  {
    id: 'pto-days',
    question: 'How many days of paid time off do full-time employees receive per calendar year?',
    expected_documents: 'hr-pto-policy',
    must_contain: '25 days',
    category: 'hr',
    reference_answer:
      'Full-time employees receive 25 days of paid time off per calendar year, on top of public holidays.',
  },
  {
    id: 'parental-leave',
    question: 'How many weeks of fully paid parental leave does Northwind offer?',
    expected_documents: 'hr-parental-leave',
    must_contain: '18 weeks',
    category: 'hr',
    rubric: 'says the leave is fully paid',
  },
  {
    id: 'no-answer',
    question: 'What is the airport code of the office on the Moon?',
    expect_no_answer: 'true',
    category: 'out-of-scope',
  },
];

/** A CSV cell: quoted when it holds a comma, a quote or a line break. */
const cell = (value: string | undefined): string =>
  value === undefined ? '' : /[",\n\r]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;

export function datasetTemplate(): string {
  return (
    [KNOWN_COLUMNS.join(','), ...ROWS.map((row) => KNOWN_COLUMNS.map((column) => cell(row[column])).join(','))].join(
      '\n',
    ) + '\n'
  );
}

export function columnsTemplate(): string {
  const lines = KNOWN_COLUMNS.map((column) => `| \`${column}\` | ${COLUMN_HELP[column].replaceAll('|', '\\|')} |`);
  return `# The columns of ${INIT_FILES.dataset}

One row per question (or per turn of a conversation). Only \`question\` is required: delete the
columns you do not use. A column not listed here is kept as metadata and shown in the reports.
A question with no expectation (no \`expected_documents\`, \`must_contain\`, \`reference_answer\`, ...)
is asked and timed, but nothing checks its answer.

| column | meaning |
| --- | --- |
${lines.join('\n')}

Check the file with \`chatbench validate\` (add \`--sim\` to check the document ids against the
embedded simulator's corpus): every problem is listed at once as \`file:line: column: message\`.
`;
}

export function setsTemplate(refs: SchemaRefs): string {
  return `# yaml-language-server: $schema=${refs.sets}
# The model override sets: every question is asked once per set with the set's LLM settings, and
# the reports compare the sets side by side. A set with no override uses the service's configured
# model; llm_overrides (two or three) asks several models at once (multi-model, streamed only).
sets:
  - name: configured
  - name: fast
    llm_override: { model_provider: openai, model_version: gpt-4o-mini, temperature: 0 }
# Request fields every set shares (absent: the service's default).
defaults:
  include_citations: true
`;
}
