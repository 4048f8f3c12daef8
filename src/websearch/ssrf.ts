/**
 * Server-side request forgery defence for the crawler: classify IP addresses
 * (IPv4 in every legacy notation the resolver accepts, IPv6 including mapped,
 * compatible, NAT64 and 6to4 forms) and decide whether a connection may go to
 * them. The crawler calls the policy on the RESOLVED address of every hop, so a
 * host name that resolves to a private address, or a redirect to one, is refused.
 *
 * Contract: `classifyAddress` never throws; text that is not an IP address is
 * `invalid`. Only `public` addresses are allowed by default; with
 * `allowPrivate` everything except cloud metadata endpoints is allowed (tests).
 */

export type AddressCategory =
  | 'public'
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'cgnat'
  | 'metadata'
  | 'unique-local'
  | 'ipv4-mapped'
  | 'multicast'
  | 'documentation'
  | 'reserved'
  | 'invalid';

/** Answers why `address` may not be connected to, or null when it may. */
export type AddressPolicy = (address: string) => AddressCategory | null;

/** Host names of cloud metadata services, refused before any lookup. */
const METADATA_HOSTS = new Set([
  'metadata.google.internal',
  'metadata.goog',
  'metadata',
  'instance-data',
  'instance-data.ec2.internal',
]);

/**
 * Parse IPv4 the way inet_aton does: 1 to 4 parts, each decimal, octal
 * (leading 0) or hex (0x); the last part fills the remaining bytes.
 * Returns the 32-bit value, or null when `text` is not such an address.
 */
export function parseIPv4(text: string): number | null {
  const parts = text.split('.');
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop(); // trailing dot
  if (parts.length < 1 || parts.length > 4) return null;
  const nums: number[] = [];
  for (const p of parts) {
    let n: number;
    if (/^0[xX][0-9a-fA-F]*$/.test(p)) n = p.length === 2 ? 0 : parseInt(p.slice(2), 16);
    else if (/^0[0-7]+$/.test(p)) n = parseInt(p.slice(1), 8);
    else if (/^(0|[1-9][0-9]*)$/.test(p)) n = Number(p);
    else return null;
    if (!Number.isFinite(n)) return null;
    nums.push(n);
  }
  const last = nums.pop()!;
  if (nums.some((n) => n > 255)) return null;
  if (last >= 2 ** (8 * (4 - nums.length))) return null;
  let value = 0;
  nums.forEach((n, i) => (value += n * 2 ** (8 * (3 - i))));
  return value + last;
}

/** Parse IPv6 (with optional embedded dotted IPv4 and zone id) into 8 16-bit groups, or null. */
export function parseIPv6(text: string): number[] | null {
  let s = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  if (!s.includes(':')) return null;
  const lastColon = s.lastIndexOf(':');
  const maybeV4 = s.slice(lastColon + 1);
  if (maybeV4.includes('.')) {
    if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(maybeV4)) return null;
    const o = maybeV4.split('.').map(Number);
    if (o.some((x) => x > 255)) return null;
    s = `${s.slice(0, lastColon + 1)}${(o[0] * 256 + o[1]).toString(16)}:${(o[2] * 256 + o[3]).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const parseGroups = (h: string) => (h === '' ? [] : h.split(':'));
  const head = parseGroups(halves[0]);
  const rest = halves.length === 2 ? parseGroups(halves[1]) : [];
  const groups: number[] = [];
  for (const g of [...head, ...rest]) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return null;
  }
  const total = head.length + rest.length;
  if (halves.length === 1 && total !== 8) return null;
  if (halves.length === 2 && total > 7) return null;
  groups.push(...head.map((g) => parseInt(g, 16)));
  if (halves.length === 2) for (let i = 0; i < 8 - total; i++) groups.push(0);
  groups.push(...rest.map((g) => parseInt(g, 16)));
  return groups.length === 8 ? groups : null;
}

const inV4 = (ip: number, base: string, bits: number) => {
  const b = parseIPv4(base)!;
  const size = 2 ** (32 - bits);
  return ip >= b && ip < b + size;
};

/** Category of a 32-bit IPv4 address. */
export function classifyIPv4(ip: number): AddressCategory {
  if (ip === parseIPv4('169.254.169.254')) return 'metadata';
  if (inV4(ip, '0.0.0.0', 8)) return 'unspecified';
  if (inV4(ip, '127.0.0.0', 8)) return 'loopback';
  if (inV4(ip, '10.0.0.0', 8) || inV4(ip, '172.16.0.0', 12) || inV4(ip, '192.168.0.0', 16)) return 'private';
  if (inV4(ip, '169.254.0.0', 16)) return 'link-local';
  if (inV4(ip, '100.64.0.0', 10)) return 'cgnat';
  if (inV4(ip, '192.0.2.0', 24) || inV4(ip, '198.51.100.0', 24) || inV4(ip, '203.0.113.0', 24)) return 'documentation';
  if (inV4(ip, '224.0.0.0', 4)) return 'multicast';
  if (
    inV4(ip, '240.0.0.0', 4) ||
    inV4(ip, '192.0.0.0', 24) ||
    inV4(ip, '198.18.0.0', 15) ||
    inV4(ip, '192.88.99.0', 24)
  ) {
    return 'reserved';
  }
  return 'public';
}

const v4FromGroups = (hi: number, lo: number) => hi * 65536 + lo;

/** Category of an IPv6 address given as 8 groups. */
export function classifyIPv6(g: number[]): AddressCategory {
  const zeroUpTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (g.every((x) => x === 0)) return 'unspecified';
  if (zeroUpTo(7) && g[7] === 1) return 'loopback';
  if (zeroUpTo(5) && g[5] === 0xffff) return 'ipv4-mapped';
  if (zeroUpTo(6)) return 'reserved'; // IPv4-compatible (deprecated)
  if (g[0] === 0xfd00 && g[1] === 0x0ec2 && g.slice(2, 7).every((x) => x === 0) && g[7] === 0x254) return 'metadata';
  if ((g[0] & 0xfe00) === 0xfc00) return 'unique-local';
  if ((g[0] & 0xffc0) === 0xfe80 || (g[0] & 0xffc0) === 0xfec0) return 'link-local';
  if ((g[0] & 0xff00) === 0xff00) return 'multicast';
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) {
    return classifyIPv4(v4FromGroups(g[6], g[7])); // NAT64 well-known prefix
  }
  if (g[0] === 0x2002) return classifyIPv4(v4FromGroups(g[1], g[2])); // 6to4
  if (g[0] === 0x2001 && g[1] === 0x0db8) return 'documentation';
  if (g[0] === 0x2001 && g[1] < 0x0200) return 'reserved'; // IETF protocol assignments, Teredo
  if ((g[0] & 0xe000) !== 0x2000) return 'reserved'; // outside global unicast 2000::/3
  return 'public';
}

/** Classify an IP address in any notation; host names and garbage are `invalid`. */
export function classifyAddress(address: string): AddressCategory {
  const v6 = parseIPv6(address);
  if (v6) return classifyIPv6(v6);
  const v4 = parseIPv4(address);
  if (v4 !== null) return classifyIPv4(v4);
  return 'invalid';
}

/** True for host names of cloud metadata services (refused before DNS, even with `allowPrivate`). */
export function isForbiddenHostName(host: string): boolean {
  return METADATA_HOSTS.has(host.toLowerCase().replace(/\.$/, ''));
}

export interface PolicyOptions {
  /** Allow private, loopback and link-local targets (CRAWLER_ALLOW_PRIVATE); metadata stays refused. */
  allowPrivate: boolean;
}

/** The default policy: only public addresses, or everything but metadata when `allowPrivate`. */
export function createAddressPolicy(options: PolicyOptions): AddressPolicy {
  return (address) => {
    const category = classifyAddress(address);
    if (category === 'public') return null;
    if (category === 'metadata' || category === 'invalid') return category;
    if (category === 'ipv4-mapped' && options.allowPrivate) {
      const g = parseIPv6(address)!;
      return classifyIPv4(v4FromGroups(g[6], g[7])) === 'metadata' ? 'metadata' : null;
    }
    return options.allowPrivate ? null : category;
  };
}
