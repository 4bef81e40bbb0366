// The platforms codrail speaks (issue 22), by the name a connection stores. Adding one is a module
// under src/platforms/<name>/ and a line here; nothing above the seam changes.
import type { Platform, PlatformName } from './platform.ts';
import { PLATFORM_NAMES } from './platform.ts';
import { generic } from './generic/generic.ts';
import { WebhookEventSchema } from './generic/contract.ts';
import { dropi } from './dropi/dropi.ts';

const PLATFORMS: Readonly<Record<PlatformName, Platform>> = { generic, dropi };

export const isPlatformName = (name: string): name is PlatformName => (PLATFORM_NAMES as readonly string[]).includes(name);

/** The module of a stored connection; an unknown name (a newer release's platform) is refused loudly. */
export function platformNamed(name: string): Platform {
  if (!isPlatformName(name)) throw new Error(`unknown fulfillment platform "${name}" (this release speaks ${PLATFORM_NAMES.join(', ')})`);
  return PLATFORMS[name];
}

export { PLATFORM_NAMES };
export type { Platform, PlatformName };

/** The signed status webhook (POST /api/fulfillment/webhook, the server's shared secret) is the generic contract's. */
export const SIGNED_WEBHOOKS = { platform: generic, schema: WebhookEventSchema } as const;
