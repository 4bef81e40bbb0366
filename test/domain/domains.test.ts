import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hostAllowed, normalizeDomainEntry, requestHost, domainCovered } from '../../src/domain/domains.ts';

test('normalizeDomainEntry lower-cases a host and drops a trailing dot and surrounding spaces', () => {
  assert.equal(normalizeDomainEntry('Shop.Example.COM'), 'shop.example.com');
  assert.equal(normalizeDomainEntry('shop.example.com.'), 'shop.example.com');
  assert.equal(normalizeDomainEntry('  shop.example.com  '), 'shop.example.com');
});

test('normalizeDomainEntry keeps a wildcard entry in lower case', () => {
  assert.equal(normalizeDomainEntry('*.Brand.Example'), '*.brand.example');
});

test('normalizeDomainEntry rejects entries with a scheme, port, path, query or credentials', () => {
  for (const entry of ['https://shop.example.com', 'shop.example.com:8080', 'shop.example.com/checkout', 'shop.example.com?x=1', 'user@shop.example.com'])
    assert.equal(normalizeDomainEntry(entry), undefined, entry);
});

test('normalizeDomainEntry rejects empty, bare or misplaced wildcards and malformed labels', () => {
  for (const entry of ['', '   ', '*', '*.', '*.*.example.com', 'shop.*.example.com', 'a..b', '-shop.example.com', 'shop_1.example.com', 'shop.example.com..'])
    assert.equal(normalizeDomainEntry(entry), undefined, JSON.stringify(entry));
});

test('normalizeDomainEntry turns a Unicode host into punycode as browsers send it', () => {
  assert.equal(normalizeDomainEntry('ñandú.com'), 'xn--and-6ma2c.com');
});

test('hostAllowed accepts an exact host and refuses another host', () => {
  assert.equal(hostAllowed('shop.example.com', ['shop.example.com'], false), true);
  assert.equal(hostAllowed('evil.example.com', ['shop.example.com'], false), false);
  assert.equal(hostAllowed('shop.example.com.evil.test', ['shop.example.com'], false), false);
});

test('hostAllowed with a wildcard accepts any subdomain but not the apex nor a look-alike', () => {
  const allowed = ['*.brand.example'];
  assert.equal(hostAllowed('www.brand.example', allowed, false), true);
  assert.equal(hostAllowed('a.b.brand.example', allowed, false), true);
  assert.equal(hostAllowed('brand.example', allowed, false), false);
  assert.equal(hostAllowed('evilbrand.example', allowed, false), false);
  assert.equal(hostAllowed('brand.example.evil', allowed, false), false);
});

test('hostAllowed accepts localhost and 127.0.0.1 only when loopback is allowed', () => {
  for (const host of ['localhost', '127.0.0.1']) {
    assert.equal(hostAllowed(host, [], true), true, host);
    assert.equal(hostAllowed(host, [], false), false, host);
    assert.equal(hostAllowed(host, ['shop.example.com'], false), false, host);
  }
});

test('hostAllowed refuses everything when the allowed list is empty and loopback is not allowed', () => {
  assert.equal(hostAllowed('shop.example.com', [], false), false);
});

test('requestHost reads the Origin host, lower-cased, without its port', () => {
  assert.equal(requestHost('https://Shop.Example.com:8443', 'https://other.example/page'), 'shop.example.com');
});

test('requestHost falls back to the Referer when there is no Origin', () => {
  assert.equal(requestHost(undefined, 'https://shop.example.com/checkout?x=1'), 'shop.example.com');
  assert.equal(requestHost('', 'https://shop.example.com/checkout'), 'shop.example.com');
});

test('requestHost treats an Origin of "null" as absent and falls back to the Referer', () => {
  assert.equal(requestHost('null', 'https://shop.example.com/'), 'shop.example.com');
  assert.equal(requestHost('null', undefined), undefined);
});

test('requestHost is undefined when both headers are absent, unparsable or not http(s)', () => {
  assert.equal(requestHost(undefined, undefined), undefined);
  assert.equal(requestHost('not a url', undefined), undefined);
  assert.equal(requestHost('ftp://shop.example.com', undefined), undefined);
  assert.equal(requestHost(undefined, 'file:///etc/passwd'), undefined);
});

test("domainCovered accepts a store's own entry, a host or narrower wildcard under a store wildcard, and nothing else", () => {
  const store = ['shop.example.com', '*.brand.example'];
  assert.equal(domainCovered('shop.example.com', store), true);
  assert.equal(domainCovered('*.brand.example', store), true);
  assert.equal(domainCovered('pay.brand.example', store), true);
  assert.equal(domainCovered('*.eu.brand.example', store), true);
  assert.equal(domainCovered('brand.example', store), false);
  assert.equal(domainCovered('*.example.com', store), false);
  assert.equal(domainCovered('evil-shop.example.com', store), false);
  assert.equal(domainCovered('xbrand.example', store), false);
});
