// Key formats (SPEC 5): random base62 from crypto.randomBytes, stored as SHA-256, shown once.
import { createHash, randomBytes } from 'node:crypto';
import { KEY_DISPLAY_PREFIX_CHARS, MAX_KEY_LENGTH, PUBLISHABLE_KEY_RANDOM_CHARS, SECRET_KEY_RANDOM_CHARS } from '../limits.ts';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Unbiased base62: bytes ≥ 248 are dropped (248 = 4 × 62). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

// The key kinds live here (pure rules); db/tables/keys.table.ts reuses them for its columns.
export type KeyType = 'publishable' | 'secret';
export type KeyEnv = 'live' | 'test';

export const KEY_PREFIXES = {
  'publishable:live': 'svc_live_pub_',
  'publishable:test': 'svc_test_pub_',
  'secret:live': 'svc_live_secret_',
} as const;

export interface KeyKind {
  type: KeyType;
  env: KeyEnv;
}

const KEY_PATTERN = /^(svc_live_pub_|svc_test_pub_)([0-9A-Za-z]{32})$|^(svc_live_secret_)([0-9A-Za-z]{40})$/;

/** The kind a well-formed key announces by its prefix; undefined for anything malformed. */
export function classifyKey(text: string): KeyKind | undefined {
  if (text.length > MAX_KEY_LENGTH) return undefined;
  const m = KEY_PATTERN.exec(text);
  if (!m) return undefined;
  if (m[1] === 'svc_live_pub_') return { type: 'publishable', env: 'live' };
  if (m[1] === 'svc_test_pub_') return { type: 'publishable', env: 'test' };
  return { type: 'secret', env: 'live' };
}

export function generateKey(kind: KeyKind): { key: string; hash: string; prefix: string; last4: string } {
  const prefix = KEY_PREFIXES[`${kind.type}:${kind.env}` as keyof typeof KEY_PREFIXES];
  if (!prefix) throw new Error(`no key format for ${kind.type}/${kind.env}`);
  const key = prefix + randomBase62(kind.type === 'secret' ? SECRET_KEY_RANDOM_CHARS : PUBLISHABLE_KEY_RANDOM_CHARS);
  return { key, hash: hashKey(key), prefix: displayPrefix(key), last4: key.slice(-4) };
}

export const hashKey = (key: string): string => createHash('sha256').update(key).digest('hex');

export function displayPrefix(key: string): string {
  const at = key.lastIndexOf('_') + 1;
  return `${key.slice(0, at + KEY_DISPLAY_PREFIX_CHARS)}…`;
}

/**
 * The masked form listings show (MCP-TOOLS.md §6.3: masked to the last 4 characters):
 * `svc_live_pub_…AbCd`. Keys made before the last four were kept show their display prefix.
 */
export function maskedKey(prefix: string, last4: string | null): string {
  if (last4 === null) return prefix;
  return `${prefix.slice(0, prefix.lastIndexOf('_') + 1)}…${last4}`;
}
