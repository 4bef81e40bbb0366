// Which addresses a URL from outside may reach (issue 19 §1): the operator's own network never.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addressAllowed, isPublicAddress } from '../../../src/http/outbound/address-policy.ts';

test('isPublicAddress refuses loopback, private, link-local, carrier-grade NAT, multicast and reserved IPv4', () => {
  for (const address of [
    '127.0.0.1',
    '127.255.255.254',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '240.0.0.1',
    '255.255.255.255',
    '192.0.2.10',
    '198.18.0.1',
  ])
    assert.equal(isPublicAddress(address), false, address);
});

test('isPublicAddress accepts public IPv4 addresses next to the private ranges', () => {
  for (const address of ['8.8.8.8', '1.1.1.1', '172.15.255.255', '172.32.0.1', '100.63.255.255', '100.128.0.1', '11.0.0.1', '169.253.0.1', '193.0.0.1']) assert.equal(isPublicAddress(address), true, address);
});

test('isPublicAddress refuses IPv6 loopback, unspecified, unique-local, link-local, multicast and documentation addresses', () => {
  for (const address of ['::1', '::', 'fc00::1', 'fd12:3456::1', 'fe80::1', 'fe80::1%eth0', 'ff02::1', '2001:db8::1', '2002:7f00:1::1', '64:ff9b:1::a00:1']) assert.equal(isPublicAddress(address), false, address);
});

test('isPublicAddress judges IPv4-mapped and NAT64 addresses by the IPv4 address they carry', () => {
  for (const address of ['::ffff:127.0.0.1', '::ffff:7f00:1', '::FFFF:10.1.2.3', '0:0:0:0:0:ffff:192.168.0.1', '64:ff9b::169.254.169.254', '64:ff9b::a9fe:a9fe'])
    assert.equal(isPublicAddress(address), false, address);
  for (const address of ['::ffff:8.8.8.8', '64:ff9b::808:808']) assert.equal(isPublicAddress(address), true, address);
});

test('isPublicAddress accepts public IPv6 and refuses what is not an IP address', () => {
  assert.equal(isPublicAddress('2606:4700:4700::1111'), true);
  assert.equal(isPublicAddress('2a00:1450:4001:80e::200e'), true);
  for (const text of ['localhost', 'example.com', '', '999.1.1.1', '1.2.3', 'fe80::zz']) assert.equal(isPublicAddress(text), false, text);
});

test('addressAllowed lets the operator-configured policy reach anything and the public policy only public addresses', () => {
  assert.equal(addressAllowed('any', '127.0.0.1'), true);
  assert.equal(addressAllowed('public', '127.0.0.1'), false);
  assert.equal(addressAllowed('public', '8.8.4.4'), true);
});
