// `codrail oauth keys rotate|list` (OAUTH.md decision 9): the operator's view of the signing keys.
import type { Deps } from '../../app.ts';

/** A new current key at once; the retired ones verify their tokens until those expire. */
export const rotateSigningKey = (deps: Pick<Deps, 'signingKeys'>) => deps.signingKeys.rotate();

/** Key ids and dates only, never key material. */
export const listSigningKeyIds = (deps: Pick<Deps, 'signingKeys'>) => deps.signingKeys.list();
