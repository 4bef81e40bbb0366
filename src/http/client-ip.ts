import type { IncomingMessage } from 'node:http';

/**
 * The client's IP. With `--trust-proxy N`, X-Forwarded-For is read from the right: each trusted
 * proxy appended one address, so the N-th from the end is what the outermost trusted proxy saw.
 * Addresses further left are client-supplied and never trusted.
 */
export function clientIp(req: IncomingMessage, trustedHops: number): string | null {
  const socketIp = normalize(req.socket.remoteAddress ?? null);
  if (trustedHops <= 0) return socketIp;
  const header = req.headers['x-forwarded-for'];
  const value = Array.isArray(header) ? header.join(',') : header;
  if (!value) return socketIp;
  const hops = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const pick = hops[Math.max(0, hops.length - trustedHops)];
  return pick ? normalize(pick) : socketIp;
}

function normalize(ip: string | null): string | null {
  if (!ip) return null;
  return ip.startsWith('::ffff:') ? ip.slice(7) : ip;
}
