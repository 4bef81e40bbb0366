// The valibot pipe every free-text input goes through (issue 13 §2; src/domain/clean-text.ts): the
// refusals are field errors in each surface's shape, the clean-up a transform. The JSON Schema an
// assistant reads is unchanged (checks and transforms are not expressible there).
import * as v from 'valibot';
import { hasControlCharacter, isWellFormed, normalizeText } from '../domain/clean-text.ts';

export const cleanText = (field: string, oneLine: boolean) =>
  v.pipe(
    v.string(`${field} must be a string`),
    v.check((s: string) => !hasControlCharacter(s), `${field} must not contain control characters`),
    v.check(isWellFormed, `${field} contains invalid Unicode (an unpaired surrogate)`),
    v.transform((s: string) => normalizeText(s, oneLine).trim()),
  );
