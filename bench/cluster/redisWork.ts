import type { TestRedis } from '../../test/helpers/redisServer.js';

/** CPU and script calls of Redis processes, counted from their start. */
export interface RedisWork {
  /** user + system CPU seconds. */
  cpu: number;
  /** Script calls (EVALSHA and EVAL) received from clients; the commands the scripts run are not counted. */
  calls: number;
}

/** What some Redis processes have done so far, from their INFO cpu and commandstats. */
export async function redisWork(servers: TestRedis[]): Promise<RedisWork> {
  const infos = await Promise.all(servers.map(async (redis) => String(await redis.command('INFO', 'cpu', 'commandstats'))));
  const sumOf = (pattern: RegExp) => infos.reduce((total, info) => total + Number(pattern.exec(info)?.[1] ?? 0), 0);
  return {
    cpu: sumOf(/^used_cpu_user:([0-9.]+)/m) + sumOf(/^used_cpu_sys:([0-9.]+)/m),
    calls: sumOf(/^cmdstat_evalsha:calls=(\d+)/m) + sumOf(/^cmdstat_eval:calls=(\d+)/m),
  };
}
