import { type RedisClient, connectRedis } from '../redis/connectRedis.js';
import { defineScripts } from '../redis/helpers/defineScripts.js';
import { readInfo } from '../redis/helpers/readInfo.js';
import { answers } from '../redis/helpers/answers.js';
import { closeRedis } from '../redis/helpers/closeRedis.js';
import { unavailable } from '../redis/helpers/unavailable.js';
import { addCredentialWithinCap } from '../redis/scripts/addCredentialWithinCap.js';
import { advanceCounterForward } from '../redis/scripts/advanceCounterForward.js';
import { readUserCredentials } from '../redis/scripts/readUserCredentials.js';
import type { RedisConfig } from '../parseStoreConfig.js';
import { type StoreHealth, StoreUnavailableError } from '../Store.js';
import type { AddCredentialResult, CredentialStore, StoredCredential } from './CredentialStore.js';

const SCRIPTS = { addCredentialWithinCap, advanceCounterForward, readUserCredentials };

/**
 * Passkey credentials in Redis, for several nodes: a hash per credential (its JSON and its
 * signature counter) and a list of ids per (site_key, stable_id), all under one hash tag so the
 * scripts that touch both stay in one cluster slot. No TTL: credentials live until removed.
 * Durable only as far as Redis is: run it with `appendonly yes` and `appendfsync always`
 * (`everysec` can lose the last second of registrations and counter moves on a crash).
 */
export class RedisCredentialStore implements CredentialStore {
  readonly #redis: RedisClient;
  readonly #scripts: ReturnType<typeof defineScripts<typeof SCRIPTS>>;
  readonly #keyOf: (id: string) => string;
  readonly #userKey: (siteKey: string, stableId: string) => string;

  /**
   * Connects (waiting at most `connectWaitMs` for a first answer) and reports whether the server
   * keeps an append-only file; without one a restart loses every credential.
   */
  static async open(config: RedisConfig, connectWaitMs = 5_000): Promise<{ store: RedisCredentialStore; durable: boolean | undefined }> {
    const redis = connectRedis(config, 'ariadne-credentials');
    const store = new RedisCredentialStore(redis, config.prefix);
    const wait = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), connectWaitMs).unref());
    const durable = await Promise.race([
      redis
        .connect()
        .then(async () => (await readInfo(redis)).aofEnabled)
        .catch(() => undefined),
      wait,
    ]);
    return { store, durable };
  }

  private constructor(redis: RedisClient, prefix: string) {
    this.#redis = redis;
    this.#scripts = defineScripts(redis, SCRIPTS);
    const tag = `${prefix}{credentials}:`;
    this.#keyOf = (id) => `${tag}id:${id}`;
    this.#userKey = (siteKey, stableId) => `${tag}user:${JSON.stringify([siteKey, stableId])}`;
  }

  async add(credential: StoredCredential, maxPerUser: number): Promise<AddCredentialResult> {
    const { counter, ...rest } = credential;
    const r = await this.#scripts
      .addCredentialWithinCap(
        [this.#keyOf(credential.id), this.#userKey(credential.siteKey, credential.stableId)],
        [JSON.stringify(rest), counter, maxPerUser, credential.id],
      )
      .catch(unavailable);
    if (r !== 'added' && r !== 'duplicate' && r !== 'limit') throw new StoreUnavailableError(`redis: unexpected reply ${String(r)}`);
    return r;
  }

  async listFor(siteKey: string, stableId: string): Promise<StoredCredential[]> {
    const flat = (await this.#scripts
      .readUserCredentials([this.#userKey(siteKey, stableId)], [this.#keyOf('')])
      .catch(unavailable)) as string[];
    const out: StoredCredential[] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) out.push(parse(flat[i]!, flat[i + 1]!));
    return out;
  }

  async get(id: string): Promise<StoredCredential | undefined> {
    const [json, counter] = await this.#redis.hmget(this.#keyOf(id), 'credential', 'counter').catch(unavailable);
    return json == null || counter == null ? undefined : parse(json, counter);
  }

  async advanceCounter(id: string, newCounter: number): Promise<boolean> {
    if (!Number.isSafeInteger(newCounter)) return false;
    return (await this.#scripts.advanceCounterForward([this.#keyOf(id)], [newCounter]).catch(unavailable)) === 1;
  }

  /** Connected, and the primary that holds the credentials answers (on a Cluster too: their one slot's). */
  health(): Promise<StoreHealth> {
    return answers(this.#redis, () => this.#redis.exists(this.#keyOf('')));
  }

  async close(): Promise<void> {
    await closeRedis(this.#redis);
  }
}

function parse(json: string, counter: string): StoredCredential {
  return { ...(JSON.parse(json) as Omit<StoredCredential, 'counter'>), counter: Number(counter) };
}
