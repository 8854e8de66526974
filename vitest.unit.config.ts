import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// `npm run test:unit`: the suite without what needs Chromium, redis-server, nginx or a child
// process (the built command line, several nodes): in-process tests only, on the embedded store,
// once (no redis/workers re-run of test/http). `npm test` runs everything.
export default defineConfig({
  test: {
    ...base.test,
    projects: undefined,
    include: ['test/**/*.test.ts'],
    exclude: [
      'test/browser/**',
      'test/nodes/**',
      'test/deploy/**',
      'test/fuzz/**',
      'test/cli/**',
      'test/cli.test.ts',
      'test/store/redis/**',
      'test/store/contract.test.ts',
      'test/store/credentials/contract.test.ts',
      'test/store/credentials/durability.test.ts',
      'test/store/traffic/contract.test.ts',
      'test/http/webauthnDurability.test.ts',
      'test/bench/redisWork.test.ts',
      'test/bench/floorApp.test.ts',
    ],
  },
});
