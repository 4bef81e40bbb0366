// PKCE (RFC 7636; OAUTH.md decision 4): S256 only, challenge and verifier in the RFC's alphabet.
import { createHash, timingSafeEqual } from 'node:crypto';

const PKCE_VALUE = /^[A-Za-z0-9\-._~]{43,128}$/;

export const validChallenge = (text: string | undefined): boolean => typeof text === 'string' && PKCE_VALUE.test(text);
export const validVerifier = validChallenge;

export function s256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** RFC 7636 §4.6: BASE64URL(SHA256(verifier)) == challenge, compared in constant time. */
export function verifierMatches(verifier: string | undefined, challenge: string): boolean {
  if (!validVerifier(verifier)) return false;
  const a = Buffer.from(s256(verifier!));
  const b = Buffer.from(challenge);
  return a.length === b.length && timingSafeEqual(a, b);
}
