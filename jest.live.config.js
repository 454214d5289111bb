/**
 * `npm run test:live`: the live tier only (test/live/*.live.ts), against the account
 * that RESELLER_API_URL and RESELLER_API_KEY name. Plain `npm test` (jest.config.js)
 * never picks these files up: they do not end in .test.ts. One worker, one run at a time.
 */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test/live'],
  testMatch: ['**/*.live.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }] },
  testTimeout: 600000,
  maxWorkers: 1,
};
