/** One redis-server for a test project run against the Redis store (see vitest.config.ts). */
import type { TestProject } from 'vitest/node';
import { startRedis } from './redisServer.js';

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const redis = await startRedis();
  project.provide('redisUrl', redis.url);
  return () => redis.close();
}
