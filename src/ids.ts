import { v7 } from 'uuid';

// Random bytes come from a pool refilled 4 KB at a time: the uuid package asks the system for 16
// bytes per id, and with five ids per order that was 4% of order creation's CPU (issue 26). The
// bytes are the same CSPRNG's, each used once.
const pool = new Uint8Array(4096);
let used = pool.length;
function random16(): Uint8Array {
  if (used + 16 > pool.length) {
    crypto.getRandomValues(pool);
    used = 0;
  }
  used += 16;
  return pool.subarray(used - 16, used);
}

// Monotonic within a millisecond, as the uuid package's own v7() keeps it (RFC 9562 §6.2, method 1:
// a counter seeded at random each millisecond): ids made in one process sort in the order made.
let lastMs = -Infinity;
let seq = 0;

/** Ids are time-ordered UUIDv7 (SPEC 3). */
export function newId(): string {
  const now = Date.now();
  const random = random16();
  if (now > lastMs) {
    lastMs = now;
    seq = ((random[6]! & 0x7f) << 24) | (random[7]! << 16) | (random[8]! << 8) | random[9]!;
  } else {
    seq = (seq + 1) | 0;
    if (seq === 0) lastMs++;
  }
  return v7({ msecs: lastMs, seq, random });
}

export const UUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
