// The dependency direction of DESIGN §2: a folder of src/ may import only from rows above it.
// Storage adapters see only spec and util; the transports see only the public API (src/index.ts).
const layers = [
  'spec',
  'util',
  'events',
  'working-memory',
  'items',
  'retrieval',
  'reflection',
  'compaction',
  'composer',
  'storage',
  'providers',
  'runtime',
];

const forbidden = layers.map((layer, index) => ({
  name: `${layer}-imports-only-above`,
  comment: `src/${layer} may import only from ${layers.slice(0, index).join(', ') || 'nothing in src'}`,
  severity: 'error',
  from: { path: `^src/${layer}/` },
  to: {
    path: `^src/(?!${[...layers.slice(0, index + 1)].join('|')}/)[^/]+/`,
    pathNot: [`^src/index\\.ts$`],
  },
}));

module.exports = {
  forbidden: [
    ...forbidden,
    {
      name: 'inspector-talks-http-only',
      comment:
        'The web inspector (ui/) reaches Engram through the HTTP API only: of src/ it imports the types of engram/client (src/client/), which its bundle never contains.',
      severity: 'error',
      from: { path: '^ui/' },
      to: { path: '^src/(?!client/)' },
    },
    {
      name: 'inspector-imports-client-types-only',
      comment:
        'The record types of the API come from engram/client; its code (fetch, the route table) is not bundled into the inspector.',
      severity: 'error',
      from: { path: '^ui/' },
      to: { path: '^src/client/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'storage-imports-only-spec-and-util',
      severity: 'error',
      from: { path: '^src/storage/' },
      to: { path: '^src/(?!spec/|util/|storage/)' },
    },
    {
      name: 'storage-adapters-are-independent',
      comment:
        'An adapter imports its own folder and shared/ (the rows and filters every SQL adapter reads and writes).',
      severity: 'error',
      from: { path: '^src/storage/([^/]+)/' },
      to: { path: '^src/storage/', pathNot: ['^src/storage/$1/', '^src/storage/shared/'] },
    },
    {
      name: 'domain-never-imports-storage-adapters',
      comment:
        'Domain code talks to storage through the StorageAdapter interface in spec/; only runtime wires adapters.',
      severity: 'error',
      from: {
        path: '^src/(spec|util|events|working-memory|items|retrieval|reflection|compaction|composer|providers)/',
      },
      to: { path: '^src/storage/' },
    },
    {
      name: 'transports-use-the-public-api',
      comment: 'cli, server and mcp are thin layers over src/index.ts.',
      severity: 'error',
      from: { path: '^src/(cli|server|mcp)/' },
      to: { path: '^src/(?!index\\.ts$|cli/|server/|mcp/)' },
    },
    {
      name: 'client-carries-types-only',
      comment: "engram/client is a small fetch client: it takes the library's types, never its code.",
      severity: 'error',
      from: { path: '^src/client/' },
      to: { path: '^src/(?!client/)', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'integrations-use-the-public-api',
      comment:
        'The framework integrations (src/integrations/) are thin layers over the public entry points, src/index.ts and src/client/index.ts: never the internals.',
      severity: 'error',
      from: { path: '^src/integrations/' },
      to: { path: '^src/', pathNot: ['^src/index\\.ts$', '^src/client/index\\.ts$', '^src/integrations/'] },
    },
    {
      name: 'integrations-are-independent',
      comment:
        'An integration imports its own folder and the modules at the root of src/integrations/ that all of them share, never another integration.',
      severity: 'error',
      from: { path: '^src/integrations/([^/]+)/' },
      to: { path: '^src/integrations/[^/]+/', pathNot: ['^src/integrations/$1/'] },
    },
    {
      name: 'nothing-imports-integrations',
      comment:
        'The library and its transports never load an integration, so `engram` runs without any agent framework installed.',
      severity: 'error',
      from: { path: '^src/(?!integrations/)' },
      to: { path: '^src/integrations/' },
    },
    {
      name: 'nothing-imports-testing',
      comment: 'engram/testing loads vitest: the library, its transports and integrations never import it (tests may).',
      severity: 'error',
      from: { path: '^src/(?!testing/)' },
      to: { path: '^src/testing/' },
    },
    {
      name: 'nothing-imports-transports',
      severity: 'error',
      from: { path: '^src/(?!cli/|server/|mcp/)' },
      to: { path: '^src/(cli|server|mcp)/' },
    },
    {
      name: 'in-memory-adapter-uses-the-published-package',
      comment:
        'test/in-memory/ is a storage adapter written as one outside Engram would be: of src/ it imports only the entry points of the package, engram (src/index.ts) and engram/testing (src/testing/index.ts).',
      severity: 'error',
      from: { path: '^test/in-memory/' },
      to: { path: '^src/', pathNot: ['^src/index\\.ts$', '^src/testing/index\\.ts$'] },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.test\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.json'] },
  },
};
