// The baseline of bench/cities-http.bench.ts: node:http and nothing else, answering every request
// with the same bytes and headers (codrail's gzip body of GET /api/geo/cities?country=CO).
//
//   node bench/bare-bytes-server.mjs BODY_FILE HEADERS_JSON
//
// Prints "listening PORT" once it takes requests.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

const [file, headersJson] = process.argv.slice(2);
const body = readFileSync(file);
const headers = { ...JSON.parse(headersJson), 'content-length': body.length };
const server = createServer((req, res) => {
  res.writeHead(200, headers);
  res.end(body);
});
server.listen(0, '127.0.0.1', () => console.log(`listening ${server.address().port}`));
process.on('SIGTERM', () => process.exit(0));
