/**
 * The /verify signature check alone, inline and on the signature worker: CPU time of the
 * process (the calling thread and, for the worker, the worker too) per check, for a key that signed the first text tried (the deployed
 * widget's) and one that signed the second (interface.md's), a fresh key each time as the HTTP
 * bench's /verify. The difference is what an interface.md client costs: one more verify, the
 * key imported once.
 */
import { sign } from 'node:crypto';
import type { SignatureVerifier } from '../src/core/verify/SignatureVerifier.js';
import { checkSignature } from '../src/core/verify/checkSignature.js';
import { inlineSignatureVerifier } from '../src/core/verify/inlineSignatureVerifier.js';
import { signatureWorker } from '../src/core/verify/signatureWorker.js';
import { ecKeyPair } from '../test/helpers/ecKeyPair.js';
import type { Section } from './section.js';

const CHECKS = process.env.BENCH_QUICK === '1' ? 1_000 : 5_000;

interface Signed {
  publicKey: string;
  signature: string;
  texts: [string, string];
}

function signedOver(textIndex: 0 | 1, n: number): Signed[] {
  return Array.from({ length: n }, (_, i) => {
    const { privateKey, jwk } = ecKeyPair();
    const texts: [string, string] = [
      `challenge-${i}:bench-site:1893456000000:${'0f'.repeat(32)}`,
      `challenge-${i}:bench-site:1893456000000`,
    ];
    const signature = sign('sha256', Buffer.from(texts[textIndex]), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64');
    return { publicKey: Buffer.from(JSON.stringify(jwk)).toString('base64'), signature, texts };
  });
}

/** Process CPU µs per check of `signed` (all valid), checked concurrently as requests would be. */
async function cpuPerCheck(verifier: SignatureVerifier, signed: Signed[]): Promise<number> {
  const before = process.cpuUsage();
  const valid = await Promise.all(signed.map((s) => checkSignature(verifier, s.publicKey, s.signature, s.texts)));
  const cpu = process.cpuUsage(before);
  if (!valid.every(Boolean)) throw new Error('a signature did not verify');
  return (cpu.user + cpu.system) / signed.length;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** CPU us per check of `verifier`, over the first text and over the second, 2 rounds each. */
async function measure(verifier: SignatureVerifier): Promise<{ first: number; second: number }> {
  await cpuPerCheck(verifier, signedOver(0, 200)); // warms the threads (and starts the worker)
  const first: number[] = [];
  const second: number[] = [];
  for (let round = 0; round < 2; round++) {
    first.push(await cpuPerCheck(verifier, signedOver(0, CHECKS)));
    second.push(await cpuPerCheck(verifier, signedOver(1, CHECKS)));
  }
  return { first: mean(first), second: mean(second) };
}

export async function runSignatureBench(): Promise<Section> {
  const inline = await measure(inlineSignatureVerifier);
  const worker = await measure(signatureWorker);
  return {
    name: 'Signature check (checkSignature, fresh key each)',
    rows: [
      { name: 'inline, signed over the first text tried (deployed widget)', 'CPU us/check': inline.first },
      {
        name: 'inline, signed over the second text (interface.md)',
        'CPU us/check': inline.second,
        'ratio to first': inline.second / inline.first,
      },
      { name: 'signature worker, first text', 'CPU us/check': worker.first, 'ratio to inline': worker.first / inline.first },
      { name: 'signature worker, second text', 'CPU us/check': worker.second, 'ratio to first': worker.second / worker.first },
    ],
    notes: [`${CHECKS} checks per round, 2 rounds; run pinned (taskset -c 0) for one core's figures`],
  };
}
