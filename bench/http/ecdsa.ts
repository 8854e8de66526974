/** Denominator 2 of the HTTP bench: one core of node:crypto ECDSA P-256, importing the JWK each time as /verify must. */
import { createPublicKey, createSign, type JsonWebKey, verify as ecdsaVerify } from 'node:crypto';
import { newSigner } from '../../test/helpers/client.js';
import { SITE_KEY } from './bodies.js';

/**
 * Checks per second of wall time and per second of this process's CPU time (what one core
 * does, however much other work shares the cores: the figure the server's CPU time is held to).
 */
export function ecdsaImportVerifyPerSecond(seconds = 2): { perSecond: number; perCpuSecond: number } {
  const keys = Array.from({ length: 64 }, () => {
    const { publicKey, privateKey } = newSigner();
    const jwk = Buffer.from(publicKey, 'base64').toString('utf8');
    const data = Buffer.from(`challenge-id:${SITE_KEY}:1893456000000`);
    const sig = createSign('sha256').update(data).sign({ key: privateKey, dsaEncoding: 'ieee-p1363' });
    return { jwk, data, sig };
  });
  let n = 0;
  const cpuBefore = process.cpuUsage();
  const start = process.hrtime.bigint();
  const end = start + BigInt(Math.round(seconds * 1e9));
  let now = start;
  while (now < end) {
    for (let i = 0; i < 64; i++) {
      const k = keys[i] as (typeof keys)[number];
      const key = createPublicKey({ key: JSON.parse(k.jwk) as JsonWebKey, format: 'jwk' });
      if (!ecdsaVerify('sha256', k.data, { key, dsaEncoding: 'ieee-p1363' }, k.sig)) throw new Error('ecdsa verify failed');
    }
    n += 64;
    now = process.hrtime.bigint();
  }
  const cpu = process.cpuUsage(cpuBefore);
  return { perSecond: n / (Number(now - start) / 1e9), perCpuSecond: n / ((cpu.user + cpu.system) / 1e6) };
}
