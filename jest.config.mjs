/**
 * Jest in ESM mode; swc transpiles (with legacy decorators and their metadata, which NestJS DI needs).
 * Types are checked by `tsc --noEmit` in `npm test`, not here.
 */
export default {
  testEnvironment: 'node',
  // CI shares two cores with other jobs: no test relies on jest's 5-second default. This is the bound of an
  // ordinary test on a busy machine; suites that start servers, processes or compilers set their own, longer ones.
  testTimeout: 60_000,
  // Jest's default is one worker per core minus one: a single worker on CI's two cores. Most suites wait on
  // servers, child processes and databases, so two workers take a third off the run (jest's part: 9 to 6 minutes).
  maxWorkers: 2,
  // Longest suites first, from jest's cache or, on a fresh clone, from the durations recorded in the repository.
  testSequencer: '<rootDir>/test/longest-first-sequencer.mjs',
  roots: ['<rootDir>/test'],
  // One folder of packed tarballs per run, shared by the package and documentation tests.
  globalSetup: '<rootDir>/test/global-setup.mjs',
  globalTeardown: '<rootDir>/test/global-teardown.mjs',
  testMatch: ['**/*.test.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: {
    '^(\\.{1,2}/.*)\\.js$': '$1',
    // The packages' own names resolve to their sources here, as tsconfig.json's paths do for tsc and tsx.
    '^typed-permissions$': '<rootDir>/runtime/permissions/index.ts',
    '^typed-permissions/precompiled$': '<rootDir>/runtime/permissions/precompiled.ts',
    '^typed-permissions/internal$': '<rootDir>/runtime/internal/index.ts',
    '^typed-permissions/(integration|nest|express|fastify|hono|client|live|service|remote|ownership|kysely|drizzle|prisma)$': '<rootDir>/runtime/$1/index.ts',
    '^typed-permissions-cli$': '<rootDir>/compiler/index.ts',
  },
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          target: 'es2022',
        },
        module: { type: 'es6' },
      },
    ],
  },
};
