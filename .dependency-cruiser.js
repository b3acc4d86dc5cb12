/**
 * The module graph as rules (`npm run lint`). A module is a folder directly under src/; it is
 * used by others only through its index.ts. scripts/architecture.ts adds the check these rules
 * cannot express (no cycle between modules) and keeps docs/architecture.md in step.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No file-level import cycles.',
      from: { path: '^(src|libs)/' },
      to: { circular: true },
    },
    {
      name: 'only-through-index',
      severity: 'error',
      comment:
        'A module imports another only through its index.ts (exported services and types), never its entities, repositories or internals.',
      from: { path: '^src/([^/]+)/' },
      to: { path: '^src/[^/]+/.+', pathNot: ['^src/$1/', '^src/[^/]+/index\\.ts$'] },
    },
    {
      name: 'composition-root-through-index',
      severity: 'error',
      comment: 'The composition roots (app.module, app.setup, main, cli, seed) use modules through their index.ts.',
      // The OpenAPI metadata is generated from every DTO and view file of the modules.
      from: { path: '^src/[^/]+\\.ts$', pathNot: '^src/openapi-metadata\\.ts$' },
      to: { path: '^src/[^/]+/.+', pathNot: '^src/[^/]+/index\\.ts$' },
    },
    {
      name: 'libs-stand-alone',
      severity: 'error',
      comment: 'libs/* are pure: they import nothing from src/.',
      from: { path: '^libs/' },
      to: { path: '^src/' },
    },
    {
      name: 'entry-points-are-not-imported',
      severity: 'error',
      comment: 'Nothing imports main.ts; only the entry points and the test bootstrap import app.setup.ts.',
      from: { pathNot: ['^src/(main|seed)\\.ts$', '^test/support/'] },
      to: { path: '^src/(app\\.setup|main)\\.ts$' },
    },
    {
      name: 'common-is-cross-cutting',
      severity: 'error',
      comment: 'Common imports no domain module (only config).',
      from: { path: '^src/common/' },
      to: { path: '^src/', pathNot: ['^src/common/', '^src/config/'] },
    },
    {
      name: 'config-is-a-leaf',
      severity: 'error',
      comment: 'Configuration depends on nothing else of the service.',
      from: { path: '^src/config/' },
      to: { path: '^src/', pathNot: ['^src/config/'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['^dist/', '\\.spec\\.ts$', '^src/database/migrations/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
