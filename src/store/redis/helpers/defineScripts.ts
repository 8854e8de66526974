import type { RedisClient } from '../connectRedis.js';

/** A Lua script and how many of its arguments are keys (absent: as many as each call passes). */
export interface LuaScript {
  lua: string;
  numberOfKeys?: number;
  readOnly?: boolean;
  /** Its replies' strings come as Buffers (binary items), not decoded as UTF-8 text. */
  replyAsBuffers?: boolean;
}

export type ScriptCall = (keys: readonly string[], args: readonly (string | number | Buffer)[]) => Promise<unknown>;

/**
 * Registers `scripts` on the client (ioredis sends EVALSHA, and the script body once when the
 * server does not know it yet) and returns one typed call per script.
 */
export function defineScripts<T extends Record<string, LuaScript>>(redis: RedisClient, scripts: T): { [K in keyof T]: ScriptCall } {
  const calls = {} as { [K in keyof T]: ScriptCall };
  for (const name of Object.keys(scripts) as (keyof T & string)[]) {
    const command = `ariadne_${name}`;
    const { numberOfKeys, replyAsBuffers, ...definition } = scripts[name]!;
    redis.defineCommand(command, numberOfKeys === undefined ? definition : { ...definition, numberOfKeys });
    // ioredis defines each command twice: replies as text, and `<command>Buffer` with raw bytes.
    const run = (redis as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[
      replyAsBuffers === true ? `${command}Buffer` : command
    ]!;
    // ioredis flattens nested arrays itself: no spread of every key and argument into the call.
    calls[name] =
      numberOfKeys === undefined ? (keys, args) => run.call(redis, keys.length, keys, args) : (keys, args) => run.call(redis, keys, args);
  }
  return calls;
}
