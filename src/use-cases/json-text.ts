// Every JSON body codrail reads (REST, MCP, OAuth registration, webhooks) is parsed here: 400
// `invalid_json` when it is not JSON, or when it nests deeper than MAX_JSON_DEPTH (issue 13 §2: a
// hostile body must get a clear error, never a stack overflow further down).
import { nestedDeeperThan } from '../domain/stable-json.ts';
import { AppError } from '../errors.ts';
import { MAX_JSON_DEPTH } from '../limits.ts';

export function parseJson(raw: Buffer | string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(typeof raw === 'string' ? raw : raw.toString('utf8'));
  } catch {
    throw new AppError('invalid_json', 'Body is not valid JSON');
  }
  if (nestedDeeperThan(value, MAX_JSON_DEPTH)) throw new AppError('invalid_json', `Body nests deeper than ${MAX_JSON_DEPTH} levels`);
  return value;
}
