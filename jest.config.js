/** Two projects: unit tests next to the code, e2e tests through HTTP on the real app. */
const transform = { '^.+\\.ts$': ['ts-jest', { diagnostics: false }] };
const common = { testEnvironment: 'node', transform, moduleFileExtensions: ['ts', 'js', 'json'] };

module.exports = {
  maxWorkers: process.env.JEST_WORKERS ?? 3,
  // A test that runs the real CLI (`ts-node src/cli.ts`) waits ~10 s per run while three workers
  // share two cores; 60 s still stops a test that hangs.
  testTimeout: 60000,
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/libs/**/*.spec.ts', '<rootDir>/test/unit/**/*.spec.ts'],
    },
    {
      ...common,
      // Through HTTP (test/e2e) and at the service layer (test/service): both on a real database.
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts', '<rootDir>/test/service/**/*.spec.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      // Every answer the suite receives is checked against the OpenAPI document, and every
      // statement the app runs against the tables its module owns.
      setupFilesAfterEnv: [
        '<rootDir>/test/support/openapi-after-each.ts',
        '<rootDir>/test/support/query-log-after-each.ts',
      ],
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
    },
  ],
};
