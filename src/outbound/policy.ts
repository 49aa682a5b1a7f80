import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

// The one outbound address policy: which URLs the server may call on a location's behalf
// (webhook receivers, funder APIs) and which addresses a host name may be dialled at.
//
//   - Every location: an absolute https URL whose host is, or resolves only to, public addresses.
//     A host with any non-public answer (mixed public + private included) is refused. Loopback,
//     private, link-local, CGNAT, unspecified, unique-local, multicast, reserved, documentation,
//     benchmarking and broadcast ranges are never called, on any port, in any spelling (the WHATWG
//     URL parser turns `2130706433`, `0x7f.1`, `0177.0.0.1`, `127.1` into `127.0.0.1`; IPv6 forms
//     that embed an IPv4 address are judged by that address). `localhost` and `*.localhost` are
//     loopback by definition (RFC 6761) and are refused without asking DNS.
//   - Test locations only (`scope.locationIsTest`), for development as the source allows:
//     additionally http(s)://localhost and http(s)://127.0.0.1 on any port. `localhost` is dialled
//     at 127.0.0.1 / ::1 directly, never through DNS. Nothing else private, not even [::1].
//
// The decision depends only on the policy (from the location), never on NODE_ENV. `vetUrl`
// returns the addresses it vetted; `guardedRequest` (./http.ts) dials only those, so there is no
// second resolution between check and connect (no DNS-rebinding window).

// ---------------------------------------------------------------- policy

export interface AddressPolicy {
  /** Test locations: http(s)://localhost and http(s)://127.0.0.1 are also allowed. */
  readonly allowDevelopmentLoopback: boolean;
}

export const PUBLIC_ONLY: AddressPolicy = Object.freeze({ allowDevelopmentLoopback: false });
export const TEST_LOCATION: AddressPolicy = Object.freeze({ allowDevelopmentLoopback: true });

/** The policy of a location: only a test location gets the development exception. */
export function policyForLocation(location: { locationIsTest?: boolean }): AddressPolicy {
  return location.locationIsTest === true ? TEST_LOCATION : PUBLIC_ONLY;
}

// ---------------------------------------------------------------- resolver (swappable for tests)

export interface ResolvedAddress {
  address: string;
  family: number;
}
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

const systemResolver: HostResolver = (hostname) => lookup(hostname, { all: true, verbatim: true });
let resolver: HostResolver = systemResolver;

/** Every address a host name resolves to (A and AAAA), through the swappable resolver. */
export const resolveHost = (hostname: string): Promise<ResolvedAddress[]> => resolver(hostname);

/** Swap the resolver (tests: no public DNS). Returns a function restoring the previous one. */
export function setHostResolver(next: HostResolver | null): () => void {
  const previous = resolver;
  resolver = next ?? systemResolver;
  return () => {
    resolver = previous;
  };
}

/**
 * A last word on every address just before a socket is opened to it. Tests install one that
 * refuses anything off this machine, so no test (nor a rule broken on purpose) ever dials out:
 * the refused address is answered as a refused connection and can be recorded.
 */
export type DialGuard = (address: string) => boolean;
let dialGuard: DialGuard | null = null;

export function setDialGuard(next: DialGuard | null): () => void {
  const previous = dialGuard;
  dialGuard = next;
  return () => {
    dialGuard = previous;
  };
}

export const dialAllowed = (address: string): boolean => !dialGuard || dialGuard(address);

// ---------------------------------------------------------------- host names

/** A URL's host without IPv6 brackets or trailing dots, lower case. */
export function bareHost(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '').replace(/\.+$/, '').toLowerCase();
}

/** `localhost` and every name under `.localhost` (RFC 6761: always loopback). */
export const isLocalhostName = (host: string): boolean => host === 'localhost' || host.endsWith('.localhost');

/** Where `localhost` is dialled for a test location (never asked of DNS). */
const LOOPBACK_ADDRESSES: readonly ResolvedAddress[] = Object.freeze([
  { address: '127.0.0.1', family: 4 },
  { address: '::1', family: 6 },
]);

// ---------------------------------------------------------------- address classification

type Range = [prefix: number[], bits: number, label: string];

const V4_BLOCKED: Range[] = [
  [[0], 8, 'unspecified'],
  [[10], 8, 'private'],
  [[100, 64], 10, 'carrier-grade NAT'],
  [[127], 8, 'loopback'],
  [[169, 254], 16, 'link-local'],
  [[172, 16], 12, 'private'],
  [[192, 0, 0], 24, 'reserved'],
  [[192, 0, 2], 24, 'documentation'],
  [[192, 88, 99], 24, 'reserved'],
  [[192, 168], 16, 'private'],
  [[198, 18], 15, 'benchmarking'],
  [[198, 51, 100], 24, 'documentation'],
  [[203, 0, 113], 24, 'documentation'],
  [[224], 4, 'multicast'],
  [[240], 4, 'reserved'],
];

// Only 2000::/3 is global unicast; inside it these are not public.
const V6_BLOCKED_GLOBAL: Range[] = [
  [[0x20, 0x01, 0x00, 0x00], 32, 'Teredo'],
  [[0x20, 0x01, 0x00, 0x02, 0x00, 0x00], 48, 'benchmarking'],
  [[0x20, 0x01, 0x00, 0x10], 28, 'reserved (ORCHID)'],
  [[0x20, 0x01, 0x00, 0x20], 28, 'reserved (ORCHIDv2)'],
  [[0x20, 0x01, 0x0d, 0xb8], 32, 'documentation'],
  [[0x3f, 0xff, 0x00], 20, 'documentation'],
];
// Outside 2000::/3, for a precise reason (everything else there is "reserved").
const V6_LABELS: Range[] = [
  [[0xfe, 0x80], 10, 'link-local'],
  [[0xfe, 0xc0], 10, 'site-local'],
  [[0xfc], 7, 'unique-local'],
  [[0xff], 8, 'multicast'],
  [[0x00, 0x64, 0xff, 0x9b, 0x00, 0x01], 48, 'local-use NAT64'],
  [[0x01, 0x00, 0, 0, 0, 0, 0, 0], 64, 'discard-only'],
];

function inRange(bytes: number[], [prefix, bits]: Range): boolean {
  for (let i = 0; i < bits; i += 8) {
    const take = Math.min(8, bits - i);
    const mask = (0xff << (8 - take)) & 0xff;
    if (((bytes[i / 8] ?? 0) & mask) !== ((prefix[i / 8] ?? 0) & mask)) return false;
  }
  return true;
}

const v4Bytes = (ip: string): number[] => ip.split('.').map(Number);

/** 16 bytes of a valid IPv6 address (accepts `::` and a trailing dotted quad). */
export function v6Bytes(ip: string): number[] {
  let text = ip.toLowerCase().replace(/%.*$/, '');
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = v4Bytes(dotted[1]);
    text = text.slice(0, -dotted[1].length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = tail === undefined ? h : [...h, ...Array(8 - h.length - t.length).fill('0'), ...t];
  return groups.flatMap((g) => {
    const n = parseInt(g || '0', 16);
    return [n >> 8, n & 0xff];
  });
}

/**
 * Why an address may never be called (loopback, private, link-local, carrier-grade NAT,
 * unspecified, unique-local, multicast, reserved, documentation, benchmarking, broadcast ...), or
 * null when it is public. IPv6 forms that embed an IPv4 address (mapped, NAT64 64:ff9b::/96,
 * 6to4 2002::/16) are judged by that address; anything that is not an IP address is refused.
 */
export function nonPublicReason(ip: string): string | null {
  const bare = ip.replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) {
    const bytes = v4Bytes(bare);
    if (bytes.every((b) => b === 255)) return 'broadcast';
    return V4_BLOCKED.find((r) => inRange(bytes, r))?.[2] ?? null;
  }
  if (family !== 6) return 'not an IP address';
  const b = v6Bytes(bare);
  if (b.every((x) => x === 0)) return 'unspecified';
  if (b.slice(0, 15).every((x) => x === 0) && b[15] === 1) return 'loopback';
  const embedded = (at: number) => b.slice(at, at + 4).join('.');
  if (b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff) return nonPublicReason(embedded(12)); // ::ffff:a.b.c.d
  if (b.slice(0, 12).every((x) => x === 0)) return 'IPv4-compatible (deprecated)'; // ::a.b.c.d
  if (inRange(b, [[0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0], 96, ''])) return nonPublicReason(embedded(12)); // NAT64
  if (inRange(b, [[0x20, 0x02], 16, ''])) return nonPublicReason(embedded(2)); // 6to4
  if (!inRange(b, [[0x20], 3, ''])) return V6_LABELS.find((r) => inRange(b, r))?.[2] ?? 'reserved';
  return V6_BLOCKED_GLOBAL.find((r) => inRange(b, r))?.[2] ?? null;
}

// ---------------------------------------------------------------- the URL rule

/** A URL that may be called, with the only addresses it may be dialled at. */
export interface VettedUrl {
  ok: true;
  url: URL;
  /** The host as the caller gave it (normalised by the URL parser), without brackets. */
  host: string;
  /** Every address here passed the policy; connect to these and nothing else. */
  addresses: ResolvedAddress[];
}

/** Why a URL may not be called. `reason` is for people (it never names a resolved address). */
export interface RefusedUrl {
  ok: false;
  /** `blocked_address`: against the rule; `dns_error`: the host does not resolve; `timeout`: resolving took too long. */
  code: 'blocked_address' | 'dns_error' | 'timeout';
  /** The text is not an absolute URL with a host at all. */
  malformed: boolean;
  host: string;
  reason: string;
}

const refuse = (code: RefusedUrl['code'], host: string, reason: string, malformed = false): RefusedUrl => ({ ok: false, code, malformed, host, reason });

/**
 * Applies the policy to a URL and resolves its host (through the swappable resolver, except for
 * `localhost` under the development exception). Never throws. `signal` bounds the resolution.
 */
export async function vetUrl(input: string | URL, policy: AddressPolicy, opts: { signal?: AbortSignal } = {}): Promise<VettedUrl | RefusedUrl> {
  let url: URL;
  try {
    url = new URL(String(input));
  } catch {
    return refuse('blocked_address', '', 'url must be an absolute URL', true);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return refuse('blocked_address', url.hostname, 'url must use HTTPS');
  const host = bareHost(url);
  if (!host) return refuse('blocked_address', '', 'url must name a host', true);
  const httpsOnly = policy.allowDevelopmentLoopback
    ? 'url must use HTTPS (plain http is accepted only for localhost and 127.0.0.1)'
    : 'url must use HTTPS';

  if (policy.allowDevelopmentLoopback) {
    if (host === 'localhost') return { ok: true, url, host, addresses: [...LOOPBACK_ADDRESSES] };
    if (host === '127.0.0.1') return { ok: true, url, host, addresses: [{ address: host, family: 4 }] };
  }
  const onlyHere = policy.allowDevelopmentLoopback ? ' (test locations may use localhost and 127.0.0.1 only)' : '';
  if (isLocalhostName(host)) return refuse('blocked_address', host, `url host ${host} is not a public address (loopback)${onlyHere}`);
  const family = isIP(host);
  if (family) {
    const why = nonPublicReason(host);
    if (why) return refuse('blocked_address', host, `url host ${host} is not a public address (${why})${onlyHere}`);
  }
  if (url.protocol !== 'https:') return refuse('blocked_address', host, httpsOnly);
  if (family) return { ok: true, url, host, addresses: [{ address: host, family }] };

  let addresses: ResolvedAddress[];
  try {
    addresses = await withSignal(resolveHost(host), opts.signal);
  } catch {
    if (opts.signal?.aborted) return refuse('timeout', host, `url host ${host} could not be resolved in time`);
    return refuse('dns_error', host, `url host ${host} could not be resolved`);
  }
  if (!addresses.length) return refuse('dns_error', host, `url host ${host} could not be resolved`);
  // Every answer must be public: a client may use any of them, and an attacker may add a private one.
  if (addresses.some((a) => nonPublicReason(a.address))) {
    return refuse('blocked_address', host, `url host ${host} resolves to a non-public address`);
  }
  return { ok: true, url, host, addresses: addresses.map((a) => ({ address: a.address, family: a.family })) };
}

function withSignal<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(new Error('aborted'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
