import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import type { Challenge } from '../../src/core/challenge/issueChallenge.js';
import { buildSubmission, postJson, solution, traceEvents } from '../helpers/client.js';
import { testKernel } from '../helpers/server.js';
import { SoftAuthenticator } from '../helpers/softAuthenticator.js';

const ORIGIN = 'https://example.com';
const RP_ID = 'example.com';
const entry = fileURLToPath(new URL('./helpers/passkeyServer.ts', import.meta.url));
const children: ChildProcess[] = [];
let dataDir: string | undefined;

afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** Starts the server process on `dir` and resolves to its base URL once it listens. */
function startServer(dir: string): Promise<{ base: string; proc: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', entry, dir, RP_ID, ORIGIN], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(proc);
    let out = '';
    let err = '';
    proc.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n')) resolve({ base: `http://127.0.0.1:${line}`, proc });
    });
    proc.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    proc.on('exit', () => reject(new Error(`server exited: ${err}`)));
  });
}

async function post(base: string, route: string, body: unknown) {
  const { status, body: answer } = await postJson(`${base}${route}`, body);
  return { status, body: answer };
}

const killed = (proc: ChildProcess) => new Promise((resolve) => proc.once('exit', (_code, signal) => resolve(signal)));

it('keeps a passkey registered right before kill -9 of the server, and it asserts after a restart', async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'ariadne-http-durable-'));
  const first = await startServer(dataDir);
  const auth = new SoftAuthenticator('ES256', ORIGIN, RP_ID);
  const opened = await post(first.base, '/webauthn/register/options', { site_key: 'site-a', stable_id: 'durable' });
  const done = await post(first.base, '/webauthn/register/verify', {
    session_id: opened.body.session_id,
    response: auth.register(opened.body.options as { challenge: string }),
  });
  first.proc.kill('SIGKILL');
  expect(done).toEqual({ status: 200, body: { success: true, credential_id: auth.id } });
  expect(await killed(first.proc)).toBe('SIGKILL');

  const second = await startServer(dataDir);
  const c = (
    await post(second.base, '/challenge', { site_key: 'site-a', stable_id: 'durable', client_capabilities: { webauthn_available: true } })
  ).body as Challenge & Record<string, any>;
  expect(c.webauthn_request_options!.allowCredentials).toEqual([{ id: auth.id, type: 'public-key', transports: ['internal'] }]);
  // This server reads real time: a trace of 1 ms steps fits the time since the challenge.
  const kernel = await testKernel();
  const events = traceEvents(c, solution(kernel, c), { stepMs: 1 });
  const body = buildSubmission(kernel, c, { sessionId: randomUUID(), events });
  const r = await post(second.base, '/verify', {
    ...body,
    stable_id: 'durable',
    webauthn: auth.assert(c.webauthn_request_options!.challenge),
  });
  expect(r).toEqual({ status: 200, body: { success: true, token: expect.any(String) } });
});

it('under load, kill -9 loses no acknowledged passkey, and after the restart the log holds only whole records', async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'ariadne-http-durable-load-'));
  const first = await startServer(dataDir);
  const acknowledged: { stableId: string; id: string }[] = [];
  let stop = false;
  // Six clients register passkeys back to back (each under its own stable_id) until the kill.
  const client = async (n: number) => {
    for (let i = 0; !stop; i++) {
      const stableId = `load-${n}-${i}`;
      const auth = new SoftAuthenticator('ES256', ORIGIN, RP_ID);
      try {
        const opened = await post(first.base, '/webauthn/register/options', { site_key: 'site-a', stable_id: stableId });
        const done = await post(first.base, '/webauthn/register/verify', {
          session_id: opened.body.session_id,
          response: auth.register(opened.body.options as { challenge: string }),
        });
        if (done.status === 200 && done.body.success === true) acknowledged.push({ stableId, id: auth.id });
      } catch {
        return; // the server is gone
      }
    }
  };
  const clients = Array.from({ length: 6 }, (_, n) => client(n));
  while (acknowledged.length < 30) await new Promise((r) => setTimeout(r, 5));
  first.proc.kill('SIGKILL');
  expect(await killed(first.proc)).toBe('SIGKILL');
  stop = true;
  await Promise.all(clients);
  const acked = [...acknowledged];

  const second = await startServer(dataDir);
  for (const { stableId, id } of acked) {
    const c = (
      await post(second.base, '/challenge', { site_key: 'site-a', stable_id: stableId, client_capabilities: { webauthn_available: true } })
    ).body as Record<string, any>;
    expect(
      c.webauthn_request_options?.allowCredentials?.map((a: { id: string }) => a.id),
      stableId,
    ).toEqual([id]);
  }
  // Opening the log cut any torn append: every line is a whole record.
  const log = await readFile(path.join(dataDir, 'credentials.jsonl'), 'utf8');
  expect(log.endsWith('\n')).toBe(true);
  const lines = log.slice(0, -1).split('\n');
  for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
  expect(lines.length).toBeGreaterThanOrEqual(acked.length);
});
