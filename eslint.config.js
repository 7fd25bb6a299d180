// Lint rules that carry the architecture: data flows dataset → plan → runner → records → metrics →
// reports (the judge and the user's checks beside the runner, on records); the simulator shares
// only src/api with the client; only src/cli touches the process.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Forbids imports of the listed src folders (by path segment) from the files matched. */
const forbid = (files, folders, message, extra = []) => ({
  files,
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          ...folders.map((folder) => ({ group: [`**/${folder}/**`, `**/${folder}/*.js`, `**/${folder}`], message })),
          ...extra,
        ],
      },
    ],
  },
});
const nodeIo = (message) => ({
  group: ['node:fs', 'node:fs/*', 'node:net', 'node:http', 'node:https', 'node:child_process'],
  message,
});

export default tseslint.config(
  { ignores: ['node_modules/**', 'reports/**', 'coverage/**', 'dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { console: 'readonly', process: 'readonly', URL: 'readonly', performance: 'readonly' },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='process'][property.name='exit']",
          message: 'Return an exit code from main(); only src/cli/bin.ts ends the process.',
        },
      ],
    },
  },
  // Only the CLI edge (and tests, scripts, benches) may talk to the console and the process.
  {
    files: ['src/**/*.ts'],
    ignores: ['src/cli/**'],
    rules: {
      'no-console': 'error',
      'no-restricted-globals': [
        'error',
        { name: 'process', message: 'Pass what you need in (Io, options); only src/cli reads the process.' },
      ],
    },
  },
  forbid(
    ['src/api/**'],
    ['client', 'sim', 'runner', 'plan', 'metrics', 'reports', 'dataset', 'sets', 'records', 'app', 'cli'],
    'src/api is the contract: it depends on nothing but zod.',
  ),
  forbid(
    ['src/sim/**'],
    ['client', 'runner', 'plan', 'metrics', 'reports', 'dataset', 'sets', 'records', 'app', 'cli'],
    'The simulator shares only src/api with the client, so a bug shared by both ends cannot make them agree.',
  ),
  forbid(
    ['src/client/wire/**'],
    ['sim', 'runner', 'plan', 'metrics', 'reports', 'app', 'cli'],
    'The wire decoder is pure.',
    [nodeIo('The wire decoder is pure: no I/O.')],
  ),
  forbid(
    ['src/client/**'],
    ['sim', 'runner', 'plan', 'metrics', 'reports', 'app', 'cli'],
    'The client sends and decodes; it knows nothing of plans, runs or scores.',
  ),
  forbid(
    ['src/dataset/**', 'src/sets/**'],
    ['sim', 'client', 'runner', 'metrics', 'reports', 'app', 'cli'],
    'Inputs are parsed before anything runs.',
  ),
  forbid(
    ['src/plan/**'],
    ['sim', 'client', 'runner', 'metrics', 'reports', 'app', 'cli'],
    'Planning is pure and comes before running.',
    [nodeIo('Planning is pure: no I/O.')],
  ),
  forbid(
    ['src/runner/**'],
    ['sim', 'metrics', 'reports', 'app', 'cli'],
    'The runner schedules and records; statistics come after the run.',
  ),
  forbid(
    ['src/records/**'],
    ['sim', 'client', 'runner', 'plan', 'metrics', 'reports', 'app', 'cli'],
    'Records are the contract downstream of the runner.',
  ),
  forbid(
    ['src/figures/**'],
    ['sim', 'client', 'runner', 'plan', 'metrics', 'reports', 'dataset', 'sets', 'compare', 'gates', 'app', 'cli'],
    'The figure catalogue and the condition grammar are the ground the others stand on: they import only records.',
    [nodeIo('Figures are pure: no I/O.')],
  ),
  forbid(
    ['src/verdict/**'],
    [
      'sim',
      'client',
      'runner',
      'plan',
      'metrics',
      'reports',
      'dataset',
      'sets',
      'compare',
      'gates',
      'judge',
      'checks',
      'viewer',
      'app',
      'cli',
    ],
    'The verdict decides from the results handed in: it imports only figures, records and errors.',
    [nodeIo('The verdict is pure: no I/O.')],
  ),
  forbid(
    ['src/metrics/**'],
    ['sim', 'client', 'runner', 'plan', 'reports', 'compare', 'gates', 'app', 'cli'],
    'Metrics are pure functions of records.',
    [nodeIo('Metrics are pure: no I/O.')],
  ),
  forbid(
    ['src/reports/**'],
    ['sim', 'client', 'runner', 'plan', 'app', 'cli'],
    'Reports render metrics; they never run anything.',
  ),
  forbid(
    ['src/judge/**'],
    ['sim', 'runner', 'plan', 'metrics', 'reports', 'dataset', 'sets', 'compare', 'gates', 'checks', 'app', 'cli'],
    "The judge asks a model about answers; it knows records and the client's HTTP edge, nothing of runs, scores or reports.",
  ),
  forbid(
    ['src/checks/**'],
    [
      'sim',
      'client',
      'runner',
      'plan',
      'metrics',
      'reports',
      'dataset',
      'sets',
      'compare',
      'gates',
      'judge',
      'app',
      'cli',
    ],
    "The user's checks run on records in their own worker; they know nothing of runs, scores or reports.",
  ),
  forbid(['src/app/**'], ['cli'], 'Nothing imports the CLI.'),
  forbid(
    ['src/viewer/**'],
    ['sim', 'client', 'runner', 'plan', 'app', 'cli'],
    'The viewer serves what the app reads (a ViewSource); it runs nothing and reads no run itself.',
  ),
  // The browser app: no Node, and of the rest of chatbench only types and a few dependency-free
  // modules, so the bundle carries no zod and no Node code (it is type-checked by its own tsconfig).
  {
    files: ['src/viewer/ui/**'],
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*'], message: 'Browser code: no Node modules.' },
            {
              group: [
                '../*.js',
                '../../*.js',
                '../../*/*.js',
                '../../*/*/*.js',
                '!../view-data.js',
                '!../../reports/format.js',
                '!../../reports/cell-state.js',
                '!../../reports/best-mark.js',
                '!../../reports/fail-reasons.js',
                '!../../metrics/pass.js',
                '!../../records/answer-key.js',
                '!../../compare/format-delta.js',
              ],
              allowTypeImports: true,
              message:
                'The viewer app imports types, and only dependency-free modules as values (see eslint.config.js).',
            },
          ],
        },
      ],
    },
  },
);
