// Which addresses a call may reach (issue 19 §1). A URL from outside (a client's metadata document,
// a seller's webhook endpoint) must not reach the operator's own network: loopback, private and
// link-local ranges (169.254.169.254 is a cloud's metadata service), carrier-grade NAT, multicast and
// the reserved blocks (RFC 6890 special-purpose registries). The check is applied to the address the
// socket connects to, never to a name resolved separately (a second look-up is what DNS rebinding
// exploits). Addresses that carry an IPv4 address inside an IPv6 one (IPv4-mapped, NAT64) are judged
// by the IPv4 address they carry.
import { BlockList, isIP } from 'node:net';

/** `public`: only addresses on the internet (URLs from outside); `any`: the operator configured it. */
export type AddressPolicy = 'public' | 'any';

const V4: readonly [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];

const V6: readonly [string, number][] = [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
];

const BLOCKED = new BlockList();
for (const [net, prefix] of V4) BLOCKED.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of V6) BLOCKED.addSubnet(net, prefix, 'ipv6');

/** The eight 16-bit groups of an IPv6 address (a trailing dotted quad included); undefined if malformed. */
function groups(address: string): number[] | undefined {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (quad) {
    const bytes = quad[1]!.split('.').map(Number);
    text = `${text.slice(0, -quad[1]!.length)}${((bytes[0]! << 8) | bytes[1]!).toString(16)}:${((bytes[2]! << 8) | bytes[3]!).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? left.length !== 8 : missing < 0) return undefined;
  return [...left, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...right].map((g) => parseInt(g, 16));
}

/** The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d) or well-known NAT64 (64:ff9b::/96, RFC 6052) address. */
function embeddedV4(address: string): string | undefined {
  const g = groups(address);
  if (!g) return undefined;
  const mapped = g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff;
  const nat64 = g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0);
  if (!mapped && !nat64) return undefined;
  return `${g[6]! >> 8}.${g[6]! & 0xff}.${g[7]! >> 8}.${g[7]! & 0xff}`;
}

/** Whether an IP address is on the public internet (false for anything that is not an IP address). */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !BLOCKED.check(address, 'ipv4');
  if (family !== 6) return false;
  const v4 = embeddedV4(address);
  if (v4 !== undefined) return !BLOCKED.check(v4, 'ipv4');
  return !BLOCKED.check(address.replace(/%.*$/, ''), 'ipv6');
}

export const addressAllowed = (policy: AddressPolicy, address: string): boolean => policy === 'any' || isPublicAddress(address);
