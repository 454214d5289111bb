/** Jest runs the TypeScript sources through ts-jest; type checking is done once by
 *  `tsc -p tsconfig.test.json` in `npm test`, so ts-jest only transpiles (much faster). */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }] },
  testTimeout: 30000,
  // HOME in a temporary directory for the whole run (synth writes ~/.terraform.d/plugins),
  // and the provider executables built once for the run (test/helpers/global-setup.js).
  globalSetup: '<rootDir>/test/helpers/global-setup.js',
  globalTeardown: '<rootDir>/test/helpers/isolated-home-teardown.js',
  // e2e suites run real terraform; keep at most 2 workers on the 2-core machines.
  maxWorkers: 2,
};
