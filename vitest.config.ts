import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
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
      // And on the SharedMemoryStore that WORKERS > 1 threads share (test/cli/workers.test.ts
      // runs real threads).
      { extends: true, test: { name: 'shared', include: ['test/http/**/*.test.ts'], env: { ARIADNE_TEST_STORE: 'shared' } } },
    ],
  },
});
