/** Address classifier and policy of the crawler's SSRF defence. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  classifyAddress,
  createAddressPolicy,
  isForbiddenHostName,
  parseIPv4,
  parseIPv6,
} from '../../../src/websearch/ssrf.ts';

describe('parseIPv4 accepts every inet_aton notation', () => {
  const loopback = 0x7f000001;
  for (const text of [
    '127.0.0.1',
    '2130706433',
    '0x7f000001',
    '0X7F000001',
    '0177.0.0.1',
    '0x7f.0.0.1',
    '127.1',
    '127.0.1',
    '017700000001',
    '127.0.0.1.',
  ]) {
    it(`${text} is 127.0.0.1`, () => assert.equal(parseIPv4(text), loopback));
  }
  for (const text of [
    '256.0.0.1',
    '1.2.3.4.5',
    '1.2.3.256',
    '08.0.0.1',
    '4294967296',
    'example.com',
    '',
    '1..2.3',
    '0x1g',
  ]) {
    it(`${JSON.stringify(text)} is not an address`, () => assert.equal(parseIPv4(text), null));
  }
});

describe('parseIPv6', () => {
  it('expands compressed forms and embedded IPv4', () => {
    assert.deepEqual(parseIPv6('::1'), [0, 0, 0, 0, 0, 0, 0, 1]);
    assert.deepEqual(parseIPv6('::ffff:127.0.0.1'), [0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]);
    assert.deepEqual(parseIPv6('[fe80::1%eth0]'), [0xfe80, 0, 0, 0, 0, 0, 0, 1]);
    assert.deepEqual(parseIPv6('1:2:3:4:5:6:7:8'), [1, 2, 3, 4, 5, 6, 7, 8]);
  });
  it('rejects malformed text', () => {
    for (const t of ['1:2:3:4:5:6:7:8:9', '1::2::3', '12345::', '::ffff:1.2.3.256', 'example.com', '1.2.3.4'])
      assert.equal(parseIPv6(t), null, t);
  });
});

describe('classifyAddress', () => {
  const cases: [string, string][] = [
    ['8.8.8.8', 'public'],
    ['93.184.216.34', 'public'],
    ['0.0.0.0', 'unspecified'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['0x7f.1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.1.1', 'private'],
    ['169.254.1.1', 'link-local'],
    ['169.254.169.254', 'metadata'],
    ['0xa9fea9fe', 'metadata'],
    ['2852039166', 'metadata'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.255', 'cgnat'],
    ['100.128.0.1', 'public'],
    ['192.0.2.1', 'documentation'],
    ['224.0.0.1', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['fe80::1', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['fd00:ec2::254', 'metadata'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'ipv4-mapped'],
    ['::ffff:7f00:1', 'ipv4-mapped'],
    ['::ffff:8.8.8.8', 'ipv4-mapped'],
    ['::127.0.0.1', 'reserved'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b::808:808', 'public'],
    ['2002:7f00:1::1', 'loopback'],
    ['2001:db8::1', 'documentation'],
    ['2001::1', 'reserved'],
    ['2606:4700:4700::1111', 'public'],
    ['2a00:1450:4001::200e', 'public'],
    ['example.com', 'invalid'],
  ];
  for (const [address, category] of cases)
    it(`${address} is ${category}`, () => assert.equal(classifyAddress(address), category));
});

describe('address policy', () => {
  it('allows only public addresses by default', () => {
    const policy = createAddressPolicy({ allowPrivate: false });
    assert.equal(policy('8.8.8.8'), null);
    assert.equal(policy('127.0.0.1'), 'loopback');
    assert.equal(policy('10.1.1.1'), 'private');
    assert.equal(policy('::ffff:8.8.8.8'), 'ipv4-mapped');
    assert.equal(policy('fd00::1'), 'unique-local');
  });
  it('with allowPrivate allows private and loopback but never metadata', () => {
    const policy = createAddressPolicy({ allowPrivate: true });
    assert.equal(policy('127.0.0.1'), null);
    assert.equal(policy('192.168.0.1'), null);
    assert.equal(policy('::ffff:127.0.0.1'), null);
    assert.equal(policy('169.254.169.254'), 'metadata');
    assert.equal(policy('::ffff:169.254.169.254'), 'metadata');
    assert.equal(policy('fd00:ec2::254'), 'metadata');
  });
  it('refuses metadata host names before any lookup', () => {
    assert.equal(isForbiddenHostName('metadata.google.internal'), true);
    assert.equal(isForbiddenHostName('METADATA.google.internal.'), true);
    assert.equal(isForbiddenHostName('example.com'), false);
  });
});
