// Every form body codrail reads (the OAuth token, revoke and sign-in/consent forms; the landing
// page's no-script order form) is parsed here, as the URL Standard parses
// application/x-www-form-urlencoded (§5.1) except for one thing: bytes that are not UTF-8, sent raw
// or percent-encoded (`nombre=%C3%28`), are refused instead of becoming U+FFFD (issue 19 §6).
// URLSearchParams would replace them silently; decodeURIComponent would also throw on a lone `%`,
// which the standard keeps as it is.
import { AppError } from '../errors.ts';
import { decodeUtf8 } from './json-text.ts';

const AMPERSAND = 0x26;
const EQUALS = 0x3d;
const PLUS = 0x2b;
const PERCENT = 0x25;

function hexValue(byte: number | undefined): number {
  if (byte === undefined) return -1;
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  const lower = byte | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

/**
 * One name or value: `+` is a space, `%XX` a byte (any other `%` stays), then strict UTF-8. Also what
 * reads a client_id sent in HTTP Basic, form-urlencoded there too (RFC 6749 §2.3.1).
 */
export function decodeFormComponent(bytes: Uint8Array): string {
  let plain = bytes;
  if (bytes.includes(PLUS) || bytes.includes(PERCENT)) {
    plain = new Uint8Array(bytes.length);
    let n = 0;
    for (let i = 0; i < bytes.length; i++) {
      const byte = bytes[i]!;
      const high = byte === PERCENT ? hexValue(bytes[i + 1]) : -1;
      const low = high >= 0 ? hexValue(bytes[i + 2]) : -1;
      if (low >= 0) {
        plain[n++] = high * 16 + low;
        i += 2;
      } else plain[n++] = byte === PLUS ? 0x20 : byte;
    }
    plain = plain.subarray(0, n);
  }
  const text = decodeUtf8(plain);
  if (text === undefined) throw new AppError('invalid_input', 'Form-urlencoded text is not valid UTF-8');
  return text;
}

/** The pairs of a form body, in order; 400 `invalid_input` when any part is not UTF-8. */
export function parseForm(raw: Uint8Array): URLSearchParams {
  const out = new URLSearchParams();
  let start = 0;
  while (start <= raw.length) {
    let end = raw.indexOf(AMPERSAND, start);
    if (end < 0) end = raw.length;
    if (end > start) {
      const pair = raw.subarray(start, end);
      const at = pair.indexOf(EQUALS);
      out.append(decodeFormComponent(at < 0 ? pair : pair.subarray(0, at)), at < 0 ? '' : decodeFormComponent(pair.subarray(at + 1)));
    }
    start = end + 1;
  }
  return out;
}
