/**
 * Fresh EC key pairs for tests, made with ECDH and imported rather than with generateKeyPairSync:
 * on Node 20, exporting a generated key (as JWK, the public key a submission carries) can deadlock
 * when a garbage collection during the export finalizes the job that generated the key, both taking
 * the key's lock. A test run hung so, its main thread asleep inside KeyObjectHandle::ExportJWK.
 */
import { type KeyObject, createECDH, createPrivateKey } from 'node:crypto';

const CURVES = { 'P-256': { name: 'prime256v1', bytes: 32 }, 'P-384': { name: 'secp384r1', bytes: 48 } } as const;

export interface EcKeyPair {
  privateKey: KeyObject;
  /** The public key as JWK: kty, crv, x, y. */
  jwk: { kty: 'EC'; crv: keyof typeof CURVES; x: string; y: string };
}

export function ecKeyPair(crv: keyof typeof CURVES = 'P-256'): EcKeyPair {
  const { name, bytes } = CURVES[crv];
  const ecdh = createECDH(name);
  // The uncompressed point: 0x04 || x || y.
  const point = ecdh.generateKeys();
  const jwk = {
    kty: 'EC',
    crv,
    x: point.subarray(1, 1 + bytes).toString('base64url'),
    y: point.subarray(1 + bytes).toString('base64url'),
  } as const;
  // The private scalar without its leading zero bytes: padded to the field's length, as JWK wants.
  const scalar = ecdh.getPrivateKey();
  const d = Buffer.concat([Buffer.alloc(bytes - scalar.length), scalar]).toString('base64url');
  return { privateKey: createPrivateKey({ key: { ...jwk, d }, format: 'jwk' }), jwk };
}
