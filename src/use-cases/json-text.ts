// Every JSON body codrail reads (REST, MCP, OAuth registration, webhooks) is parsed here: 400
// `invalid_json` when it is not UTF-8 (issue 19 §6), not JSON, or when it nests deeper than
// MAX_JSON_DEPTH (issue 13 §2: a hostile body must get a clear error, never a stack overflow further down).
import { nestedDeeperThan } from '../domain/stable-json.ts';
import { AppError } from '../errors.ts';
import { MAX_JSON_DEPTH } from '../limits.ts';

/**
 * RFC 8259 §8.1: JSON text exchanged between systems MUST be UTF-8. A fatal decoder refuses what
 * `Buffer#toString` would silently turn into U+FFFD (and store); a BOM is kept, so JSON.parse still
 * refuses it as before. The form parser (form-text.ts) decodes with it too.
 */
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The bytes as text, or undefined when they are not well-formed UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}

export function parseJson(raw: Buffer | string): unknown {
  const text = typeof raw === 'string' ? raw : decodeUtf8(raw);
  if (text === undefined) throw new AppError('invalid_json', 'Body is not valid UTF-8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError('invalid_json', 'Body is not valid JSON');
  }
  if (nestedDeeperThan(value, MAX_JSON_DEPTH)) throw new AppError('invalid_json', `Body nests deeper than ${MAX_JSON_DEPTH} levels`);
  return value;
}
