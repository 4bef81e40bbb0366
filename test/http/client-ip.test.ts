import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { clientIp } from '../../src/http/client-ip.ts';

/** The two fields clientIp reads from a request: the socket's peer address and the headers. */
function req(remoteAddress: string | undefined, headers: Record<string, string | string[]> = {}): IncomingMessage {
  return { socket: { remoteAddress }, headers } as unknown as IncomingMessage;
}

describe('clientIp', () => {
  test('without a trusted proxy the socket address is the client, whatever X-Forwarded-For says', () => {
    assert.equal(clientIp(req('203.0.113.7'), 0), '203.0.113.7');
    assert.equal(clientIp(req('203.0.113.7', { 'x-forwarded-for': '198.51.100.1' }), 0), '203.0.113.7');
  });

  test('an IPv4-mapped IPv6 socket address is reported as plain IPv4', () => {
    assert.equal(clientIp(req('::ffff:127.0.0.1'), 0), '127.0.0.1');
  });

  test('a plain IPv6 socket address is kept as it is', () => {
    assert.equal(clientIp(req('2001:db8::1'), 0), '2001:db8::1');
    assert.equal(clientIp(req('::1'), 0), '::1');
  });

  test('a socket without an address gives null', () => {
    assert.equal(clientIp(req(undefined), 0), null);
    assert.equal(clientIp(req(undefined), 1), null);
  });

  test('with one trusted proxy the last X-Forwarded-For address is the client and earlier ones are ignored', () => {
    const r = req('10.0.0.2', { 'x-forwarded-for': '6.6.6.6, 198.51.100.1' });
    assert.equal(clientIp(r, 1), '198.51.100.1');
  });

  test('with two trusted proxies the second address from the right is the client', () => {
    const r = req('10.0.0.2', { 'x-forwarded-for': '6.6.6.6, 198.51.100.1, 10.0.0.9' });
    assert.equal(clientIp(r, 2), '198.51.100.1');
  });

  test('a spoofed address prepended by the client cannot displace the one the trusted proxy appended', () => {
    const honest = req('10.0.0.2', { 'x-forwarded-for': '198.51.100.1' });
    const spoofed = req('10.0.0.2', { 'x-forwarded-for': '1.2.3.4, 5.6.7.8, 198.51.100.1' });
    assert.equal(clientIp(honest, 1), '198.51.100.1');
    assert.equal(clientIp(spoofed, 1), '198.51.100.1');
  });

  test('more trusted hops than addresses gives the leftmost address', () => {
    assert.equal(clientIp(req('10.0.0.2', { 'x-forwarded-for': '198.51.100.1, 10.0.0.9' }), 5), '198.51.100.1');
  });

  test('a trusted proxy without X-Forwarded-For falls back to the socket address', () => {
    assert.equal(clientIp(req('::ffff:10.0.0.2'), 1), '10.0.0.2');
    assert.equal(clientIp(req('10.0.0.2', { 'x-forwarded-for': '' }), 1), '10.0.0.2');
    assert.equal(clientIp(req('10.0.0.2', { 'x-forwarded-for': ' , ,' }), 1), '10.0.0.2');
  });

  test('spaces and empty items in X-Forwarded-For are skipped', () => {
    assert.equal(clientIp(req('10.0.0.2', { 'x-forwarded-for': '198.51.100.1 ,, ' }), 1), '198.51.100.1');
  });

  test('repeated X-Forwarded-For headers are read as one list in order', () => {
    const r = req('10.0.0.2', { 'x-forwarded-for': ['6.6.6.6', '198.51.100.1, 10.0.0.9'] });
    assert.equal(clientIp(r, 1), '10.0.0.9');
    assert.equal(clientIp(r, 2), '198.51.100.1');
  });

  test('an IPv4-mapped address in X-Forwarded-For is reported as plain IPv4', () => {
    assert.equal(clientIp(req('10.0.0.2', { 'x-forwarded-for': '::ffff:198.51.100.1' }), 1), '198.51.100.1');
  });
});
