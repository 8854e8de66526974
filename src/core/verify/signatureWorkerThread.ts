import { parentPort } from 'node:worker_threads';
import { checkP256 } from './checkP256.js';

// The signature worker (signatureWorker.ts): [id, public_key, signature, text] in, [id, valid] out.
parentPort!.on('message', ([id, publicKey, signature, text]: [number, string, string, string]) =>
  parentPort!.postMessage([id, checkP256(publicKey, signature, text)]),
);
