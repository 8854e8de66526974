import { mkdir, open, readFile, rename, truncate } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { AddCredentialResult, CredentialStore, StoredCredential } from './CredentialStore.js';

/** File name of the credential log inside DATA_DIR. */
export const CREDENTIALS_FILE = 'credentials.jsonl';
/** Rewrite the log at open when it holds this many more lines than live credentials. */
const COMPACT_SLACK = 1000;

type LogRecord = { op: 'add'; credential: StoredCredential } | { op: 'counter'; id: string; counter: number };

interface PendingWrite {
  line: string;
  done: () => void;
  fail: (error: unknown) => void;
}

/**
 * Opens (creating if needed) the credential log `DATA_DIR/credentials.jsonl`: one JSON record per
 * line, appended and fdatasync'd before any write is acknowledged, replayed into memory here.
 * A torn last line (a crash in the middle of an append) is cut off; a damaged line anywhere else
 * stops the open rather than silently losing credentials. One process per directory.
 */
export async function openFileCredentialStore(dataDir: string): Promise<CredentialStore> {
  await mkdir(dataDir, { recursive: true });
  const file = path.join(dataDir, CREDENTIALS_FILE);
  const { records, validBytes, totalBytes, created } = await readLog(file);
  if (validBytes < totalBytes) await truncate(file, validBytes);

  const store = new FileCredentialStore();
  for (const record of records) store.apply(record);
  if (records.length > store.size() + COMPACT_SLACK) await compact(file, store.snapshot());

  store.attach(await open(file, 'a'));
  if (created) await syncDirectory(dataDir);
  return store;
}

class FileCredentialStore implements CredentialStore {
  private readonly byId = new Map<string, StoredCredential>();
  private readonly byUser = new Map<string, StoredCredential[]>();
  /** Ids and per-user counts of adds written but not yet durable, so limits hold meanwhile. */
  private readonly reservedIds = new Set<string>();
  private readonly reservedPerUser = new Map<string, number>();
  private handle: FileHandle | undefined;
  private pending: PendingWrite[] = [];
  private flushing: Promise<void> | undefined;
  private closed = false;

  attach(handle: FileHandle): void {
    this.handle = handle;
  }

  size(): number {
    return this.byId.size;
  }

  snapshot(): StoredCredential[] {
    return [...this.byId.values()];
  }

  /** Replays one log record into memory. */
  apply(record: LogRecord): void {
    if (record.op === 'add') {
      if (!this.byId.has(record.credential.id)) this.publish(record.credential);
    } else {
      const credential = this.byId.get(record.id);
      if (credential && record.counter > credential.counter) credential.counter = record.counter;
    }
  }

  async add(credential: StoredCredential, maxPerUser: number): Promise<AddCredentialResult> {
    const user = userKey(credential.siteKey, credential.stableId);
    if (this.byId.has(credential.id) || this.reservedIds.has(credential.id)) return 'duplicate';
    const reserved = this.reservedPerUser.get(user) ?? 0;
    if ((this.byUser.get(user)?.length ?? 0) + reserved >= maxPerUser) return 'limit';

    const stored = { ...credential, transports: [...credential.transports] };
    this.reservedIds.add(stored.id);
    this.reservedPerUser.set(user, reserved + 1);
    try {
      await this.append({ op: 'add', credential: stored });
      this.publish(stored);
    } finally {
      this.reservedIds.delete(stored.id);
      const left = (this.reservedPerUser.get(user) ?? 1) - 1;
      if (left === 0) this.reservedPerUser.delete(user);
      else this.reservedPerUser.set(user, left);
    }
    return 'added';
  }

  async listFor(siteKey: string, stableId: string): Promise<StoredCredential[]> {
    return (this.byUser.get(userKey(siteKey, stableId)) ?? []).map(copy);
  }

  async get(id: string): Promise<StoredCredential | undefined> {
    const credential = this.byId.get(id);
    return credential && copy(credential);
  }

  async advanceCounter(id: string, newCounter: number): Promise<boolean> {
    const credential = this.byId.get(id);
    if (!credential || !(newCounter > credential.counter)) return false;
    // Moved in memory first, in the same tick as the check: the compare-and-set is atomic.
    credential.counter = newCounter;
    await this.append({ op: 'counter', id, counter: newCounter });
    return true;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    while (this.flushing) await this.flushing;
    await this.handle?.close();
  }

  private publish(credential: StoredCredential): void {
    this.byId.set(credential.id, credential);
    const user = userKey(credential.siteKey, credential.stableId);
    const list = this.byUser.get(user);
    if (list) list.push(credential);
    else this.byUser.set(user, [credential]);
  }

  /** Resolves once the record is on disk. Concurrent appends share one write and one fsync. */
  private append(record: LogRecord): Promise<void> {
    if (this.closed) return Promise.reject(new Error('credential store is closed'));
    return new Promise((done, fail) => {
      this.pending.push({ line: `${JSON.stringify(record)}\n`, done, fail });
      if (!this.flushing) this.flushing = this.flush();
    });
  }

  private async flush(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending;
      this.pending = [];
      try {
        await writeAll(this.handle!, Buffer.from(batch.map((w) => w.line).join('')));
        await this.handle!.datasync();
        for (const w of batch) w.done();
      } catch (error) {
        for (const w of batch) w.fail(error);
      }
    }
    this.flushing = undefined;
  }
}

function userKey(siteKey: string, stableId: string): string {
  return JSON.stringify([siteKey, stableId]);
}

function copy(credential: StoredCredential): StoredCredential {
  return { ...credential, transports: [...credential.transports] };
}

async function writeAll(handle: FileHandle, data: Buffer): Promise<void> {
  let offset = 0;
  while (offset < data.length) {
    const { bytesWritten } = await handle.write(data, offset, data.length - offset);
    offset += bytesWritten;
  }
}

async function readLog(file: string): Promise<{
  records: LogRecord[];
  validBytes: number;
  totalBytes: number;
  created: boolean;
}> {
  let data: Buffer;
  try {
    data = await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return { records: [], validBytes: 0, totalBytes: 0, created: true };
    }
    throw error;
  }
  const records: LogRecord[] = [];
  let start = 0;
  let line = 0;
  while (start < data.length) {
    const end = data.indexOf(0x0a, start);
    line += 1;
    // No newline: the append that wrote it never finished.
    if (end === -1) break;
    const record = parseRecord(data.subarray(start, end).toString('utf8'));
    if (record === undefined) {
      // A damaged final line is a torn append too (the file grew before its bytes landed).
      if (end + 1 === data.length) break;
      throw new Error(`${file}: line ${line} is damaged; refusing to start without its credentials`);
    }
    records.push(record);
    start = end + 1;
  }
  return { records, validBytes: start, totalBytes: data.length, created: false };
}

function parseRecord(text: string): LogRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const r = value as Partial<LogRecord> | null;
  if (r?.op === 'add' && typeof r.credential?.id === 'string') return r as LogRecord;
  if (r?.op === 'counter' && typeof r.id === 'string' && typeof r.counter === 'number') {
    return r as LogRecord;
  }
  return undefined;
}

/** Rewrites the log as one add per live credential (counters folded in), atomically. */
async function compact(file: string, credentials: StoredCredential[]): Promise<void> {
  const temp = `${file}.compact`;
  const handle = await open(temp, 'w');
  try {
    const lines = credentials.map((credential) => `${JSON.stringify({ op: 'add', credential })}\n`);
    await writeAll(handle, Buffer.from(lines.join('')));
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, file);
  await syncDirectory(path.dirname(file));
}

/** Makes a file's creation or rename durable (the directory entry is data too). */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
