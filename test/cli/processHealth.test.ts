import { describe, expect, it } from 'vitest';
import { processHealth } from '../../src/cli/processHealth.js';
import type { CredentialStore } from '../../src/store/credentials/CredentialStore.js';

const credentialsWith = (health?: CredentialStore['health']) => ({ ...(health ? { health } : {}) }) as CredentialStore;

describe('processHealth', () => {
  it('names each thread by its number, and the credentials when they can fail', async () => {
    const down = async () => ({ ok: false, detail: 'redis: reconnecting' });
    expect(await processHealth([{ ok: true }, undefined], credentialsWith(down))).toEqual({
      ok: false,
      detail: 'thread 2: did not answer; passkey credentials: redis: reconnecting',
    });
  });

  it('leaves out credentials that always answer (a local file), and passkeys off', async () => {
    expect(await processHealth([{ ok: true }, { ok: true }], credentialsWith())).toEqual({ ok: true });
    expect(await processHealth([{ ok: false, detail: 'redis: connecting' }])).toEqual({ ok: false, detail: 'thread 1: redis: connecting' });
  });
});
