import { createHash, createPublicKey, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { type CborValue, encodeCbor } from './cbor.js';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';

export type SoftAlgorithm = 'ES256' | 'EdDSA' | 'RS256';

/** Authenticator data flags: user present, user verified, attested credential data included. */
export const FLAG_UP = 0x01;
export const FLAG_UV = 0x04;
export const FLAG_AT = 0x40;

/** What a browser would put around the authenticator's output; each part can be overridden. */
export interface CeremonyOverrides {
  origin?: string;
  rpId?: string;
  challenge?: string;
  type?: string;
  flags?: number;
  /** The COSE algorithm the credential's key claims (registration), instead of its own. */
  coseAlg?: number;
}

/**
 * A software passkey authenticator holding one credential, with real keys (node:crypto), real
 * CBOR attestation objects (fmt "none") and real assertion signatures over
 * authenticatorData || SHA-256(clientDataJSON). `signCount` is the counter the next assertion
 * reports; it is incremented by each assertion when `counting` is on.
 */
export class SoftAuthenticator {
  readonly credentialId: Buffer;
  readonly privateKey: KeyObject;
  private readonly coseKey: Buffer;
  signCount = 0;

  /** A new credential, or with `existing` the one a previous authenticator created. */
  constructor(
    readonly alg: SoftAlgorithm,
    readonly origin: string,
    readonly rpId: string,
    readonly counting = false,
    existing?: { credentialId: Buffer; privateKey: KeyObject },
  ) {
    this.credentialId = existing?.credentialId ?? randomBytes(32);
    this.privateKey = existing?.privateKey ?? generateKey(alg);
    this.coseKey = coseKeyOf(alg, createPublicKey(this.privateKey));
  }

  get id(): string {
    return this.credentialId.toString('base64url');
  }

  /** navigator.credentials.create() for `options` (the server's creation options). */
  register(options: { challenge: string }, over: CeremonyOverrides = {}): RegistrationResponseJSON {
    const clientDataJSON = this.clientData('webauthn.create', options.challenge, over);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const authData = Buffer.concat([
      this.authHeader(over, FLAG_UP | FLAG_UV | FLAG_AT),
      Buffer.alloc(16), // AAGUID: zeros, as with attestation none
      idLength,
      this.credentialId,
      over.coseAlg === undefined ? this.coseKey : coseKeyOf(this.alg, createPublicKey(this.privateKey), over.coseAlg),
    ]);
    const attestationObject = encodeCbor(
      new Map<CborValue, CborValue>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    return this.credentialJSON({
      clientDataJSON: clientDataJSON.toString('base64url'),
      attestationObject: Buffer.from(attestationObject).toString('base64url'),
      transports: ['internal'],
    });
  }

  /** navigator.credentials.get() for a base64url `challenge`. */
  assert(challenge: string, over: CeremonyOverrides = {}): AuthenticationResponseJSON {
    if (this.counting) this.signCount += 1;
    const clientDataJSON = this.clientData('webauthn.get', challenge, over);
    const authData = this.authHeader(over, FLAG_UP | FLAG_UV);
    const signed = Buffer.concat([authData, createHash('sha256').update(clientDataJSON).digest()]);
    return this.credentialJSON({
      clientDataJSON: clientDataJSON.toString('base64url'),
      authenticatorData: authData.toString('base64url'),
      signature: this.sign(signed).toString('base64url'),
    });
  }

  /** The PublicKeyCredential JSON a browser sends around a ceremony's `response`. */
  private credentialJSON<R>(response: R) {
    return { id: this.id, rawId: this.id, type: 'public-key' as const, clientExtensionResults: {}, response };
  }

  private sign(data: Buffer): Buffer {
    if (this.alg === 'EdDSA') return sign(null, data, this.privateKey);
    // WebAuthn ECDSA signatures are DER-encoded; RS256 is PKCS#1 v1.5.
    return sign('sha256', data, { key: this.privateKey, dsaEncoding: 'der' });
  }

  private clientData(type: string, challenge: string, over: CeremonyOverrides): Buffer {
    return Buffer.from(
      JSON.stringify({
        type: over.type ?? type,
        challenge: over.challenge ?? challenge,
        origin: over.origin ?? this.origin,
        crossOrigin: false,
      }),
    );
  }

  /** rpIdHash (32) | flags (1) | signCount (4, big-endian). */
  private authHeader(over: CeremonyOverrides, flags: number): Buffer {
    const header = Buffer.alloc(37);
    createHash('sha256')
      .update(over.rpId ?? this.rpId)
      .digest()
      .copy(header, 0);
    header[32] = over.flags ?? flags;
    header.writeUInt32BE(this.signCount >>> 0, 33);
    return header;
  }
}

function generateKey(alg: SoftAlgorithm): KeyObject {
  if (alg === 'ES256') return generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
  if (alg === 'EdDSA') return generateKeyPairSync('ed25519').privateKey;
  return generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
}

/** The public key as the COSE_Key an authenticator puts in its attested credential data. */
function coseKeyOf(alg: SoftAlgorithm, publicKey: KeyObject, claimedAlg?: number): Buffer {
  const spki = publicKey.export({ format: 'der', type: 'spki' });
  let cose: Map<CborValue, CborValue>;
  if (alg === 'ES256') {
    // The SPKI of a P-256 key ends with the uncompressed point 04 || x || y.
    const point = spki.subarray(-65);
    cose = new Map<CborValue, CborValue>([
      [1, 2], // kty: EC2
      [3, claimedAlg ?? -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, point.subarray(1, 33)],
      [-3, point.subarray(33, 65)],
    ]);
  } else if (alg === 'EdDSA') {
    cose = new Map<CborValue, CborValue>([
      [1, 1], // kty: OKP
      [3, claimedAlg ?? -8], // alg: EdDSA
      [-1, 6], // crv: Ed25519
      [-2, spki.subarray(-32)],
    ]);
  } else {
    const jwk = publicKey.export({ format: 'jwk' });
    cose = new Map<CborValue, CborValue>([
      [1, 3], // kty: RSA
      [3, claimedAlg ?? -257], // alg: RS256
      [-1, Buffer.from(jwk.n!, 'base64url')],
      [-2, Buffer.from(jwk.e!, 'base64url')],
    ]);
  }
  return encodeCbor(cose);
}
