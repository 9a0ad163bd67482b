/**
 * The dependency rules of the repository, checked by `npm run lint` (dependency-cruiser): no import cycle (type-only
 * imports count: a circle of types is still a circle a reader must untangle), and the runtime's layers, lowest
 * first. A file may import its own folder and the folders of lower layers, never a folder of its own layer or of
 * a higher one. The framework integrations import only the package's public entries. CONTRIBUTING.md shows the
 * same map (test/repository/layer-map.test.ts compares the two, and both with the folders).
 */

/** The runtime's layers, lowest first; each is a list of folders. */
const LAYERS = [
  { name: 'common', folders: ['runtime/core/common'] },
  { name: 'shape', folders: ['runtime/core/shape'] },
  { name: 'ownership rules', folders: ['runtime/core/ownership-rules'] },
  { name: 'definition', folders: ['runtime/core/definition'] },
  { name: 'projection', folders: ['runtime/core/projection'] },
  { name: 'tables', folders: ['runtime/core/tables'] },
  { name: 'table building', folders: ['runtime/core/table-building'] },
  { name: 'decision', folders: ['runtime/core/decision'] },
  { name: 'decision log', folders: ['runtime/core/decision-log'] },
  { name: 'policy test', folders: ['runtime/core/policy-test'] },
  { name: 'live policy', folders: ['runtime/live'] },
  { name: 'front door', folders: ['runtime/permissions'] },
  { name: 'integration kit, ownership seam and browser client', folders: ['runtime/integration', 'runtime/ownership', 'runtime/client'] },
  {
    name: 'integrations, ORM adapters and remote permissions',
    folders: ['runtime/nest', 'runtime/express', 'runtime/hono', 'runtime/fastify', 'runtime/kysely', 'runtime/drizzle', 'runtime/prisma', 'runtime/remote'],
  },
  { name: 'decision service', folders: ['runtime/service'] },
  { name: 'the compiler entry', folders: ['runtime/internal'] },
  { name: 'commands', folders: ['runtime/cli'] },
];

/**
 * The compiler's layers, lowest first: the command line calls the review tools and the pipeline, the review tools
 * (the policy diff, the review page, the replay of logged decisions) call the pipeline and the layers below it, the pipeline calls the output folder,
 * the emitters and the model, the model calls the policy-test format and the readers; problems import nothing.
 */
const COMPILER_LAYERS = [
  { name: 'problems', folders: ['compiler/problems'] },
  { name: 'reading', folders: ['compiler/reading'] },
  { name: 'policy tests', folders: ['compiler/policy-tests'] },
  { name: 'model', folders: ['compiler/model'] },
  { name: 'emit', folders: ['compiler/emit'] },
  { name: 'output', folders: ['compiler/output'] },
  { name: 'pipeline', folders: ['compiler/compile.ts'] },
  { name: 'review', folders: ['compiler/review'] },
  { name: 'commands', folders: ['compiler/commands'] },
  { name: 'entries', folders: ['compiler/index.ts', 'compiler/bin.ts'] },
];

/** The framework integrations and the ORM adapters: they import the package's public entries only, never the files inside them. */
const INTEGRATIONS = ['runtime/nest', 'runtime/express', 'runtime/hono', 'runtime/fastify', 'runtime/kysely', 'runtime/drizzle', 'runtime/prisma'];

/** The public entries an integration may import. */
const PUBLIC_ENTRIES = [
  'runtime/permissions/index.ts',
  'runtime/permissions/precompiled.ts',
  'runtime/integration/index.ts',
  'runtime/live/index.ts',
  'runtime/ownership/index.ts',
];

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Matches a path inside one of `paths` (a folder, or a single file such as `compiler/compile.ts`); group 1 is which. */
const under = (paths) => `^(${paths.map(escape).join('|')})(/|$)`;

/** One rule per layer of `layers`: what it must not import (its own layer's other folders, and every higher layer). */
const rulesOf = (layers, prefix) =>
  layers.map((layer, index) => ({
    name: `${prefix}: ${layer.name}`,
    comment: `${layer.folders.join(', ')} may import ${
      index === 0
        ? 'only itself'
        : layers
            .slice(0, index)
            .map((lower) => lower.name)
            .join(', ')
    } (and itself).`,
    severity: 'error',
    from: { path: under(layer.folders) },
    to: {
      path: under(layers.slice(index).flatMap((other) => other.folders)),
      pathNot: `^$1/`,
    },
  }));

const config = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycle, type-only imports included.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...rulesOf(LAYERS, 'layer'),
    ...rulesOf(COMPILER_LAYERS, 'compiler layer'),
    {
      name: 'the compiler uses the runtime through typed-permissions/internal',
      comment: 'The compiler shares exactly what runtime/internal/index.ts exports, never an inner file of the runtime.',
      severity: 'error',
      from: { path: '^compiler/' },
      to: { path: '^runtime/', pathNot: '^runtime/internal/index\\.ts$' },
    },
    {
      name: 'integrations use public entries',
      comment: `An integration imports ${PUBLIC_ENTRIES.join(', ')} and its own folder only.`,
      severity: 'error',
      from: { path: under(INTEGRATIONS) },
      to: { path: '^runtime/', pathNot: ['^$1/', `^(${PUBLIC_ENTRIES.map(escape).join('|')})$`] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules)/' },
    tsConfig: { fileName: 'tsconfig.json' },
    // Type-only imports are dependencies too.
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};

// For the map's test; not enumerable, so that dependency-cruiser's own check of the configuration does not see it.
Object.defineProperty(config, 'layers', { value: { LAYERS, COMPILER_LAYERS, INTEGRATIONS, PUBLIC_ENTRIES }, enumerable: false });

export default config;
