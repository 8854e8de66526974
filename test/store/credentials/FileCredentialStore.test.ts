import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CredentialStore, StoredCredential } from '../../../src/store/credentials/CredentialStore.js';
import { CREDENTIALS_FILE, openFileCredentialStore } from '../../../src/store/credentials/FileCredentialStore.js';

let dir: string;
let store: CredentialStore | undefined;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ariadne-credentials-'));
});
afterEach(async () => {
  await store?.close();
  store = undefined;
  await rm(dir, { recursive: true, force: true });
});

function credential(id: string, stableId = 'user-1', siteKey = 'site-a'): StoredCredential {
  return { id, siteKey, stableId, publicKey: 'pQECAyYgASFY', alg: -7, counter: 0, transports: ['internal'], createdAt: 1 };
}

async function reopen(): Promise<CredentialStore> {
  await store?.close();
  store = await openFileCredentialStore(dir);
  return store;
}

/** Stores credential 'a', closes, appends `tail` to the log (what a crash mid-write leaves), reopens. */
async function reopenWithTail(tail: string): Promise<CredentialStore> {
  const s = await reopen();
  await s.add(credential('a'), 10);
  await s.close();
  await appendFile(path.join(dir, CREDENTIALS_FILE), tail);
  return reopen();
}

/** What every CredentialStore does is in contract.test.ts; this is the log file's own behaviour. */
describe('openFileCredentialStore', () => {
  it('cuts a torn last line (no newline) and keeps appending after it', async () => {
    let s = await reopenWithTail('{"op":"add","credential":{"id":"tor');
    expect(await s.get('a')).toBeDefined();
    expect(await s.add(credential('b'), 10)).toBe('added');
    s = await reopen();
    expect((await s.listFor('site-a', 'user-1')).map((c) => c.id)).toEqual(['a', 'b']);
    const lines = (await readFile(path.join(dir, CREDENTIALS_FILE), 'utf8')).split('\n');
    expect(lines.filter((l) => l.length > 0).every((l) => JSON.parse(l))).toBe(true);
  });

  it('treats a damaged complete last line as torn, but refuses to open over a damaged middle line', async () => {
    const s = await reopenWithTail('\0\0\0\0\n');
    expect(await s.get('a')).toBeDefined();
    await s.add(credential('b'), 10);
    await s.close();
    store = undefined;
    const file = path.join(dir, CREDENTIALS_FILE);
    const [first, second] = (await readFile(file, 'utf8')).trim().split('\n');
    await writeFile(file, `${first}\nnot json\n${second}\n`);
    await expect(openFileCredentialStore(dir)).rejects.toThrow(/line 2 is damaged/);
  });

  it('compacts a log of many counter updates at open, keeping the latest counters', async () => {
    let s = await reopen();
    await s.add(credential('a'), 10);
    await s.add(credential('b'), 10);
    for (let i = 1; i <= 1200; i++) await s.advanceCounter(i % 2 ? 'a' : 'b', i);
    s = await reopen();
    const lines = (await readFile(path.join(dir, CREDENTIALS_FILE), 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(2);
    expect((await s.get('a'))?.counter).toBe(1199);
    expect((await s.get('b'))?.counter).toBe(1200);
    expect(await s.advanceCounter('b', 1201)).toBe(true);
    s = await reopen();
    expect((await s.get('b'))?.counter).toBe(1201);
  });

  it('refuses writes after close', async () => {
    const s = await reopen();
    await s.close();
    store = undefined;
    await expect(s.add(credential('a'), 10)).rejects.toThrow(/closed/);
  });
});
