import { Worker } from 'node:worker_threads';

/**
 * The worker's code, plain JavaScript so that it starts the same from src (tests) and dist.
 * Messages: [id, public_key, signature, text] in, [id, valid] out.
 */
const SOURCE = String.raw`
const { parentPort } = require('node:worker_threads');
const { createPublicKey, verify } = require('node:crypto');

const COORDINATE = 32;

// Imported keys by their public_key text, least recently used first: importing costs about
// as much as a verify, and a client signing several challenges pays it once.
const keys = new Map();
const MAX_KEYS = 4096;

// The P-256 key of a public_key field (standard base64 of a JWK's JSON), or undefined.
// createPublicKey checks the point is on the curve (enough with cofactor 1); measured here it
// imports in about 130-160 us where WebCrypto's raw import takes 165-210 us (its argument
// normalisation and CryptoKey wrapping cost more than the point check).
function importKey(encoded) {
  let key = keys.get(encoded);
  if (key !== undefined) {
    keys.delete(encoded);
  } else {
    try {
      const jwk = JSON.parse(Buffer.from(encoded, 'base64').toString('utf8'));
      if (jwk === null || jwk.kty !== 'EC' || jwk.crv !== 'P-256' || typeof jwk.x !== 'string' || typeof jwk.y !== 'string') return undefined;
      const x = Buffer.from(jwk.x, 'base64url');
      const y = Buffer.from(jwk.y, 'base64url');
      if (x.length > COORDINATE || y.length > COORDINATE) return undefined;
      key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: padded(x), y: padded(y) }, format: 'jwk' });
    } catch {
      return undefined;
    }
    if (keys.size >= MAX_KEYS) keys.delete(keys.keys().next().value);
  }
  keys.set(encoded, key);
  return key;
}

// A coordinate of fewer than 32 bytes, left-padded with zeros, as base64url.
const padded = (c) => (c.length === COORDINATE ? c : Buffer.concat([Buffer.alloc(COORDINATE - c.length), c])).toString('base64url');

function check([id, publicKey, signature, text]) {
  try {
    const key = importKey(publicKey);
    return [id, key !== undefined && verify('sha256', Buffer.from(text), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64'))];
  } catch {
    return [id, false];
  }
}

parentPort.on('message', (request) => parentPort.postMessage(check(request)));
`;

interface Pending {
  resolve(valid: boolean): void;
  reject(err: Error): void;
}

/**
 * ECDSA P-256 / SHA-256 checks on a worker thread. node:crypto imports a key on the calling
 * thread (about as long as the verify itself), so the whole check, import included, runs off
 * the thread that serves HTTP. One worker per serving thread (with WORKERS threads, as many
 * signature workers: a pool the size of the machine), started on first use; it holds the
 * process open only while checks are pending.
 */
class SignatureWorker {
  #worker: Worker | undefined;
  readonly #pending = new Map<number, Pending>();
  #nextId = 0;

  /** Whether `signature` (standard base64 of raw r || s) by `publicKey` verifies over `text`. */
  check(publicKey: string, signature: string, text: string): Promise<boolean> {
    const worker = (this.#worker ??= this.#start());
    if (this.#pending.size === 0) worker.ref();
    const id = this.#nextId++;
    worker.postMessage([id, publicKey, signature, text]);
    return new Promise((resolve, reject) => this.#pending.set(id, { resolve, reject }));
  }

  #start(): Worker {
    const worker = new Worker(SOURCE, { eval: true });
    worker.unref();
    worker.on('message', ([id, valid]: [number, boolean]) => {
      this.#pending.get(id)?.resolve(valid);
      this.#pending.delete(id);
      if (this.#pending.size === 0) worker.unref();
    });
    worker.on('error', (err) => this.#lost(worker, err));
    worker.on('exit', (code) => this.#lost(worker, new Error(`signature worker exited with code ${code}`)));
    return worker;
  }

  /** The worker died: pending checks fail (their requests answer internal_error), the next starts a new one. */
  #lost(worker: Worker, err: Error): void {
    if (this.#worker !== worker) return;
    this.#worker = undefined;
    for (const pending of this.#pending.values()) pending.reject(err);
    this.#pending.clear();
  }
}

export const signatureWorker = new SignatureWorker();
