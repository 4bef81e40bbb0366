// A seller's image host for the product image tests: a real node:http server on loopback (the
// server under test allows private addresses with CODRAIL_IMAGE_URLS_ALLOW_PRIVATE=1) serving
// images drawn with sharp, and what a bad host answers: 404, HTML, SVG, a body that never ends, a
// decompression bomb. It counts the requests of each path, so a test sees what was fetched once.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';

type Answer = { body: Buffer; type: string; status?: number } | ((res: ServerResponse) => void);

export interface ImageHost {
  /** `http://127.0.0.1:<port><path>` */
  url(path: string): string;
  /** Requests this path received. */
  hits(path: string): number;
  /** Answer this path with these bytes from now on. */
  serve(path: string, body: Buffer, type?: string): void;
  /** Bytes the endless path wrote before the client hung up, and whether it did. */
  endless: { written: number; closed: boolean };
  close(): Promise<void>;
}

/** A photo-like image: a colour gradient with grain (each seed its own colours, so its own bytes), as JPEG or another format. */
export async function photo(opts: { width: number; height: number; seed?: number; format?: 'jpeg' | 'png' | 'webp' | 'gif' }): Promise<Buffer> {
  const { width, height, seed = 1 } = opts;
  const grain = await sharp({ create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 12 } } })
    .png()
    .toBuffer();
  const hue = (seed * 67) % 360;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},60%,55%)"/><stop offset="1" stop-color="hsl(${(hue + 90) % 360},50%,35%)"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/><circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(width, height) / 4}" fill="#fff" opacity="0.6"/></svg>`;
  const image = sharp(Buffer.from(svg)).composite([{ input: grain, blend: 'soft-light' }]);
  switch (opts.format ?? 'jpeg') {
    case 'png':
      return image.png().toBuffer();
    case 'webp':
      return image.webp().toBuffer();
    case 'gif':
      return image.gif().toBuffer();
    default:
      return image.jpeg({ quality: 90 }).toBuffer();
  }
}

/**
 * A JPEG stored sideways with EXIF orientation 6 (turn 90° clockwise to view), a GPS position and a
 * camera: stored 800×400 with its left half red and its right half blue, so upright it is 400×800
 * with red on top.
 */
export async function sidewaysPhotoWithGps(): Promise<Buffer> {
  const half = (colour: string) => sharp({ create: { width: 400, height: 400, channels: 3, background: colour } }).png().toBuffer();
  return sharp({ create: { width: 800, height: 400, channels: 3, background: '#000' } })
    .composite([
      { input: await half('#ff0000'), left: 0, top: 0 },
      { input: await half('#0000ff'), left: 400, top: 0 },
    ])
    .withMetadata({ orientation: 6 })
    .withExif({
      IFD0: { Make: 'SecretCam', Model: 'Tracker 9000' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '6/1 15/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '75/1 34/1 0/1' },
    })
    .jpeg({ quality: 92 })
    .toBuffer();
}

function crc32(bytes: Buffer): number {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A valid PNG header declaring width × height (RGB, 8 bits) over a few bytes of data: a decompression bomb. */
export function bombPng(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  // The first rows' worth of zeros, deflated: tiny, and a decoder would go on expecting billions more.
  const idat = deflateSync(Buffer.alloc(width * 3 + 1), { level: 9 });
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
}

export const SVG_LOGO = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400"><script>alert(1)</script><circle cx="200" cy="200" r="150" fill="red"/></svg>');

export async function startImageHost(): Promise<ImageHost> {
  const answers = new Map<string, Answer>();
  const hits = new Map<string, number>();
  const endless = { written: 0, closed: false };
  answers.set('/missing.jpg', { body: Buffer.from('not found'), type: 'text/plain', status: 404 });
  answers.set('/page.html', { body: Buffer.from('<!doctype html><title>Faja</title><p>Una página, no una imagen.</p>'), type: 'text/html' });
  // Announced as an image: the bytes decide, not the Content-Type.
  answers.set('/logo.svg', { body: SVG_LOGO, type: 'image/png' });
  answers.set('/bomb.png', { body: bombPng(50_000, 50_000), type: 'image/png' });
  answers.set('/endless.jpg', (res) => {
    res.writeHead(200, { 'content-type': 'image/jpeg' });
    const block = Buffer.alloc(64 * 1024, 0xff);
    const pump = () => {
      while (!res.destroyed) {
        endless.written += block.length;
        if (!res.write(block)) return void res.once('drain', pump);
      }
    };
    res.on('close', () => (endless.closed = true));
    pump();
  });
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const answer = answers.get(path);
    if (!answer) return void res.writeHead(404).end();
    if (typeof answer === 'function') return answer(res);
    res.writeHead(answer.status ?? 200, { 'content-type': answer.type, 'content-length': answer.body.length }).end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: (path) => `${base}${path}`,
    hits: (path) => hits.get(path) ?? 0,
    serve: (path, body, type = 'image/jpeg') => void answers.set(path, { body, type }),
    endless,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
