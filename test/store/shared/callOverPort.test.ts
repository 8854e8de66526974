/** A store owned by one thread, called from another over a message port: answers, failures, and only the methods offered. */
import { MessageChannel, Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryStore } from '../../../src/store/MemoryStore.js';
import { StoreUnavailableError } from '../../../src/store/Store.js';
import { answerOverPort } from '../../../src/store/shared/answerOverPort.js';
import { callOverPort } from '../../../src/store/shared/callOverPort.js';

const channels: MessageChannel[] = [];
afterEach(() => {
  for (const c of channels.splice(0)) {
    c.port1.close();
    c.port2.close();
  }
});

/** `owner`'s `methods`, as another thread sees them. */
function remote<T extends object, K extends keyof T & string>(owner: T, methods: readonly K[], offered: readonly string[] = methods) {
  const channel = new MessageChannel();
  channels.push(channel);
  answerOverPort(channel.port1, owner, offered);
  return callOverPort<T, K>(channel.port2, methods);
}

describe('callOverPort and answerOverPort', () => {
  it("resolves to the owner's answers, byte arrays intact", async () => {
    const owner = new MemoryStore({ maxMarkers: 1, maxCounters: 1 });
    const lists = remote(owner, ['append', 'lists']);
    await lists.append('k', new Uint8Array([0, 255, 7]), 60_000, 4);
    await lists.append('k', new Uint8Array([1]), 60_000, 4);
    const [list, absent] = await lists.lists(['k', 'none']);
    expect(list!.map((b) => Array.from(b))).toEqual([[0, 255, 7], [1]]);
    expect(absent).toEqual([]);
    // The owner holds them: another caller sees the same list.
    expect((await owner.lists(['k']))[0]).toHaveLength(2);
  });

  it("rejects with the owner's StoreUnavailableError (so callers answer 503), and with other errors' messages", async () => {
    const owner = {
      down: async () => {
        throw new StoreUnavailableError('credentials file unreadable');
      },
      broken: async () => {
        throw new TypeError('bad input');
      },
    };
    const r = remote(owner, ['down', 'broken']);
    const down = await r.down().catch((e: unknown) => e);
    expect(down).toBeInstanceOf(StoreUnavailableError);
    expect((down as Error).message).toBe('credentials file unreadable');
    await expect(r.broken()).rejects.toThrow('bad input');
  });

  it('refuses a method the owner does not offer', async () => {
    const owner = { get: async () => 1, close: async () => 'closed' };
    const r = remote(owner, ['get', 'close'], ['get']);
    expect(await r.get()).toBe(1);
    await expect(r.close()).rejects.toThrow('no method close');
  });

  it('answers a caller on another thread', async () => {
    const owner = new MemoryStore({ maxMarkers: 1, maxCounters: 1 });
    const { port1, port2 } = new MessageChannel();
    answerOverPort(port1, owner, ['append', 'lists']);
    // Plain JavaScript on the built code (npm test builds it).
    const worker = new Worker(
      `const { workerData, parentPort } = require('node:worker_threads');
       import(workerData.module).then(async ({ callOverPort }) => {
         const lists = callOverPort(workerData.port, ['append', 'lists']);
         await lists.append('t', new Uint8Array([9]), 60000, 4);
         parentPort.postMessage((await lists.lists(['t']))[0].map((b) => Array.from(b)));
       });`,
      {
        eval: true,
        workerData: { port: port2, module: new URL('../../../dist/store/shared/callOverPort.js', import.meta.url).href },
        transferList: [port2],
      },
    );
    const seen = await new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    await worker.terminate();
    port1.close();
    expect(seen).toEqual([[9]]);
    expect((await owner.lists(['t']))[0]!.map((b) => Array.from(b))).toEqual([[9]]);
  });
});
