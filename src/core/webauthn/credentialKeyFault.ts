import { cose, decodeCredentialPublicKey, isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';

/** The key type (and curve) each supported algorithm signs with (COSE, RFC 9053). */
const KEY_OF_ALGORITHM = new Map<number, { kty: number; crv?: number }>([
  [cose.COSEALG.ES256, { kty: cose.COSEKTY.EC2, crv: cose.COSECRV.P256 }],
  [cose.COSEALG.EdDSA, { kty: cose.COSEKTY.OKP, crv: cose.COSECRV.ED25519 }],
  [cose.COSEALG.RS256, { kty: cose.COSEKTY.RSA }],
]);

/**
 * What is wrong with a registration beyond what the library checks, or undefined: the
 * attestationObject is exactly one CBOR item (no bytes after it), and the credential's COSE
 * algorithm is one of ours and matches its key type and curve.
 */
export function credentialKeyFault(attestationObject: string, publicKey: Uint8Array<ArrayBuffer>): string | undefined {
  const bytes = isoBase64URL.toBuffer(attestationObject);
  // tiny-cbor re-encodes an item to its own length (maps stay maps, byte strings stay untagged).
  if (isoCBOR.encode(isoCBOR.decodeFirst(bytes)).length !== bytes.length) return 'bytes after the attestationObject';
  const key = decodeCredentialPublicKey(publicKey);
  const alg = key.get(cose.COSEKEYS.alg);
  const expected = alg === undefined ? undefined : KEY_OF_ALGORITHM.get(alg);
  if (expected === undefined) return 'unsupported algorithm';
  if (key.get(cose.COSEKEYS.kty) !== expected.kty) return 'algorithm does not match the key type';
  if (expected.crv !== undefined && (key as Map<number, unknown>).get(cose.COSEKEYS.crv) !== expected.crv)
    return 'algorithm does not match the curve';
  return undefined;
}
