import { createPublicKey } from 'node:crypto';

/**
 * An issuer a site trusts for Privacy Pass tokens of type 0x0002 (RFC 9578, blind RSA): its name
 * (as the token challenge carries it) and its token key, base64url of the SubjectPublicKeyInfo
 * with the RSASSA-PSS OID, exactly as the issuer publishes it (its directory's `token-key`).
 * Plain strings: policies cross threads and reloads.
 */
export interface PrivacyPassIssuer {
  name: string;
  tokenKey: string;
}

/** Type 0x0002 keys are 2048-bit RSA (RFC 9578, section 6: Nk = 256). */
const MODULUS_BITS = 2048;
/** Longest issuer name: a hostname with a port. */
export const MAX_ISSUER_NAME_LENGTH = 261;
/** Most issuers (keys included: one entry per key) a site may trust. */
export const MAX_ISSUERS = 16;

const ISSUER_NAME = /^[a-z0-9]([a-z0-9.-]{0,252}[a-z0-9])?(:[0-9]{1,5})?$/;

/**
 * The issuer, checked: a lowercase host name (a port allowed) and a token key that is a 2048-bit
 * RSA public key. Throws an Error naming what is wrong; start-up and reloads report it.
 */
export function checkIssuer(name: string, tokenKey: string): PrivacyPassIssuer {
  if (name.length > MAX_ISSUER_NAME_LENGTH || !ISSUER_NAME.test(name))
    throw new Error(`issuer name ${JSON.stringify(name)}: not a lowercase host name`);
  const key = tokenKey.replace(/=+$/, '');
  if (!/^[A-Za-z0-9_-]+$/.test(key)) throw new Error(`issuer ${name}: token key is not base64url`);
  let bits: number | undefined;
  try {
    const k = createPublicKey({ key: Buffer.from(key, 'base64url'), format: 'der', type: 'spki' });
    bits = k.asymmetricKeyType === 'rsa-pss' || k.asymmetricKeyType === 'rsa' ? k.asymmetricKeyDetails?.modulusLength : undefined;
  } catch {
    throw new Error(`issuer ${name}: token key is not a public key (SubjectPublicKeyInfo, DER)`);
  }
  if (bits !== MODULUS_BITS) throw new Error(`issuer ${name}: token key is not a ${MODULUS_BITS}-bit RSA key (token type 0x0002)`);
  return { name, tokenKey: key };
}
