// dependency-cruiser (`npm run depcheck`, run by `npm test` beside lint): the import graph of src/
// has no cycle and no import running up the layers. The layers, bottom to top, are the order the
// folder rules of eslint.config.js imply (those rules stay; this adds the order and the cycles).
// A module may import its own folder and any folder of a LOWER layer; folders of one layer are
// siblings and import nothing of each other. docs/architecture.md draws the picture.

import { readdirSync } from 'node:fs';

/** Bottom to top; each entry a layer, each layer a list of folders (or files) under src/. */
const LAYERS = [
  ['api', 'errors.ts'],
  ['util'],
  ['records'],
  ['figures'],
  ['verdict'],
  ['dataset'],
  ['sets'],
  ['sim', 'client/wire', 'checks'],
  ['client'],
  ['judge'],
  ['plan'],
  ['metrics'],
  ['tokens'],
  ['runner'],
  ['reports', 'telemetry'],
  ['compare'],
  ['gates'],
  ['viewer'],
  ['dashboard'],
  ['app/store'],
  ['app/shared'],
  ['app/eval', 'app/load'],
  ['app/merge', 'ci', 'init', 'history'],
  ['cli'],
];

// A folder of src/ in no layer would go unchecked: every one must be placed above.
const placed = new Set(LAYERS.flat().map((place) => place.split('/')[0]));
const unplaced = readdirSync(new URL('./src/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !placed.has(entry.name))
  .map((entry) => entry.name);
if (unplaced.length > 0)
  throw new Error(`.dependency-cruiser.mjs: src/${unplaced.join(', src/')} is in no layer of LAYERS: place it`);

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A path regex for a folder or a file of src/. */
const pathOf = (place) => `^src/${escape(place)}${place.endsWith('.ts') ? '$' : '/'}`;
/** The subfolders of a folder that are layers of their own (client/wire of client): ruled apart. */
const deeper = (place) => LAYERS.flat().filter((other) => other !== place && other.startsWith(`${place}/`));

const upward = LAYERS.flatMap((layer, rank) =>
  layer.flatMap((place) => {
    const above = LAYERS.slice(rank + 1).flat();
    const siblings = layer.filter((other) => other !== place);
    const forbidden = [...above, ...siblings];
    // Its own folder and the lower layers stay open even where a forbidden folder holds them (client/wire in client).
    const open = [place, ...LAYERS.slice(0, rank).flat()];
    // The top layer may import everything: no rule (an empty `to` would match every module).
    if (forbidden.length === 0) return [];
    return [
      {
        name: `layer:${place}`,
        comment: `src/${place} imports only its own folder and the layers below it (${LAYERS.slice(0, rank).flat().join(', ') || 'nothing'}); see docs/architecture.md.`,
        severity: 'error',
        from: { path: pathOf(place), pathNot: deeper(place).map(pathOf) },
        to: { path: forbidden.map(pathOf), pathNot: open.map(pathOf) },
      },
    ];
  }),
);

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-circular',
      comment:
        'A circle of imports means two files are one concern, or a type lives in the wrong file: move the type to the file it describes.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...upward,
  ],
  options: {
    // The sources under src/ (the viewer's browser app and test helpers such as runner/testing in
    // their folder's layer); tests and fixtures are left out.
    includeOnly: '^src/',
    exclude: { path: ['\\.test\\.tsx?$', '/fixtures/'] },
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: a circle through types is still a circle.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] },
  },
};
