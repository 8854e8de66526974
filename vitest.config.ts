import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two files at a time on the 2-core machines the suite runs on (the default is one fewer than
    // the cores): most files wait on real servers, browsers and clocks, not on the CPU.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'memory', include: ['test/**/*.test.ts'] } },
      // The HTTP protocol suite again, every test server on a RedisStore (test/helpers/server.ts).
      {
        extends: true,
        test: {
          name: 'redis',
          include: ['test/http/**/*.test.ts'],
          globalSetup: ['test/helpers/redisGlobalSetup.ts'],
          env: { ARIADNE_TEST_STORE: 'redis' },
        },
      },
      // And on two serving threads sharing one port and the SharedMemoryStore, as WORKERS=2 runs
      // (test/helpers/server.ts), every request on a connection of its own so both threads answer.
      {
        extends: true,
        test: {
          name: 'workers',
          include: ['test/http/**/*.test.ts'],
          env: { ARIADNE_TEST_WORKERS: '2' },
          setupFiles: ['test/helpers/connectionPerRequest.ts'],
        },
      },
    ],
  },
});
