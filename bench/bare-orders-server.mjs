// The baselines of bench/order-create.bench.ts: node:http + better-sqlite3 and nothing else, plain
// JavaScript (no TypeScript at run time), the same pragmas as codrail (WAL, synchronous NORMAL).
//
//   node bench/bare-orders-server.mjs insert FILE       one prepared single-row INSERT per order
//   node bench/bare-orders-server.mjs same-writes FILE  what a codrail order commits, in one
//        transaction with prepared statements: three rate-limit counters (IP, key, phone), the
//        store's next order number, the order, its event and its outbox job
//
// Prints "listening PORT" once it takes requests.
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';

const [mode, file] = process.argv.slice(2);
if (mode !== 'insert' && mode !== 'same-writes') throw new Error('mode: insert | same-writes');
const db = new Database(file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.pragma('busy_timeout = 5000');
db.exec(`
  CREATE TABLE IF NOT EXISTS orders (id TEXT PRIMARY KEY, store_id TEXT, order_number INTEGER, status TEXT, nombre TEXT, telefono TEXT,
    departamento TEXT, ciudad TEXT, direccion TEXT, pack TEXT, quantity INTEGER, total_minor INTEGER, created_at TEXT) STRICT;
  CREATE TABLE IF NOT EXISTS order_events (id TEXT PRIMARY KEY, order_id TEXT, type TEXT, data TEXT, created_at TEXT) STRICT;
  CREATE TABLE IF NOT EXISTS jobs (id TEXT PRIMARY KEY, order_id TEXT, state TEXT, next_attempt_at TEXT) STRICT;
  CREATE TABLE IF NOT EXISTS rate_limits (bucket TEXT, window_start INTEGER, count INTEGER, PRIMARY KEY (bucket, window_start)) STRICT, WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS stores (id TEXT PRIMARY KEY, next_order_number INTEGER) STRICT;
  INSERT OR IGNORE INTO stores VALUES ('s1', 1001);
`);
const insertOrder = db.prepare(
  'INSERT INTO orders (id, store_id, order_number, status, nombre, telefono, departamento, ciudad, direccion, pack, quantity, total_minor, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
);
const insertEvent = db.prepare('INSERT INTO order_events (id, order_id, type, data, created_at) VALUES (?, ?, ?, ?, ?)');
const insertJob = db.prepare('INSERT INTO jobs (id, order_id, state, next_attempt_at) VALUES (?, ?, ?, ?)');
const hit = db.prepare('INSERT INTO rate_limits (bucket, window_start, count) VALUES (?, ?, 1) ON CONFLICT (bucket, window_start) DO UPDATE SET count = count + 1 RETURNING count');
const takeNumber = db.prepare("UPDATE stores SET next_order_number = next_order_number + 1 WHERE id = 's1' RETURNING next_order_number - 1 AS n");

const place = db.transaction((o, ip) => {
  const now = new Date().toISOString();
  const minute = Math.floor(Date.now() / 60_000);
  hit.get(`ip:${ip}`, minute);
  hit.get('key:k1', minute);
  hit.get(`phone:${o.telefono}`, Math.floor(Date.now() / 3_600_000));
  const { n } = takeNumber.get();
  const id = randomUUID();
  insertOrder.run(id, 's1', n, 'pending', o.nombre, o.telefono, o.departamento, o.ciudad, o.direccion, o.pack, o.quantity, Math.round(o.total_price * 100), now);
  insertEvent.run(randomUUID(), id, 'order.created', '{"mode":"bench"}', now);
  insertJob.run(randomUUID(), id, 'queued', now);
  return { id, order_number: n };
});

let number = 1000;
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const o = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    let out;
    if (mode === 'insert') {
      const id = randomUUID();
      insertOrder.run(id, 's1', ++number, 'pending', o.nombre, o.telefono, o.departamento, o.ciudad, o.direccion, o.pack, o.quantity, Math.round(o.total_price * 100), new Date().toISOString());
      out = { id, order_number: number };
    } else out = place(o, req.socket.remoteAddress);
    const body = JSON.stringify({ success: true, data: { ...out, status: 'pending' } });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
});
server.listen(0, '127.0.0.1', () => console.log(`listening ${server.address().port}`));
process.on('SIGTERM', () => process.exit(0));
