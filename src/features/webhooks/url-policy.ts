import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

// Where webhooks may be sent: absolute HTTPS URLs whose host resolves only to public addresses,
// plus http(s)://localhost and http(s)://127.0.0.1 for development (the source's rule). Checked on
// create and update, and again at send time by delivery-http.ts (a host may be re-pointed at a
// private address after it was accepted).

export interface ResolvedAddress {
  address: string;
  family: number;
}
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

const systemResolver: HostResolver = (hostname) => lookup(hostname, { all: true, verbatim: true });
let resolver: HostResolver = systemResolver;

/** Every address a hostname resolves to (A and AAAA), through the swappable resolver. */
export const resolveHost = (hostname: string): Promise<ResolvedAddress[]> => resolver(hostname);

/** Swap the resolver (tests: no public DNS). Returns a function restoring the previous one. */
export function setHostResolver(next: HostResolver | null): () => void {
  const previous = resolver;
  resolver = next ?? systemResolver;
  return () => {
    resolver = previous;
  };
}

/** The development exceptions of the source: localhost and 127.0.0.1, any port. */
export const DEVELOPMENT_HOSTS = new Set(['localhost', '127.0.0.1']);

/** A URL's host without IPv6 brackets or a trailing dot, lower case. */
export function bareHost(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
}

// ---------------------------------------------------------------- address classification

type Range = [prefix: number[], bits: number, label: string];

const V4_BLOCKED: Range[] = [
  [[0], 8, 'unspecified ("this network")'],
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

const V6_BLOCKED: Range[] = [
  [[0xfe, 0x80], 10, 'link-local'],
  [[0xfe, 0xc0], 10, 'site-local'],
  [[0xfc], 7, 'unique-local'],
  [[0xff], 8, 'multicast'],
  [[0x20, 0x01, 0x0d, 0xb8], 32, 'documentation'],
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

function v4Bytes(ip: string): number[] {
  return ip.split('.').map(Number);
}

/** 16 bytes of an IPv6 address (accepts `::` and a trailing dotted quad). */
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
 * Why an address may not receive webhooks (private, loopback, link-local, unique-local, CGNAT,
 * unspecified, multicast, documentation ...), or null when it is public. IPv6 forms that embed an
 * IPv4 address (mapped, compatible, NAT64, 6to4) are judged by that address.
 */
export function nonPublicReason(ip: string): string | null {
  const family = isIP(ip.replace(/%.*$/, ''));
  if (family === 4) {
    const bytes = v4Bytes(ip);
    if (bytes.every((b) => b === 255)) return 'broadcast';
    return V4_BLOCKED.find((r) => inRange(bytes, r))?.[2] ?? null;
  }
  if (family !== 6) return 'not an IP address';
  const b = v6Bytes(ip);
  if (b.every((x) => x === 0)) return 'unspecified';
  if (b.slice(0, 15).every((x) => x === 0) && b[15] === 1) return 'loopback';
  const embedded = (at: number) => b.slice(at, at + 4).join('.');
  if (b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff) return nonPublicReason(embedded(12)); // ::ffff:a.b.c.d
  if (b.slice(0, 12).every((x) => x === 0)) return nonPublicReason(embedded(12)) ?? 'IPv4-compatible'; // ::a.b.c.d (deprecated)
  if (inRange(b, [[0x00, 0x64, 0xff, 0x9b], 96, ''])) return nonPublicReason(embedded(12)); // NAT64 64:ff9b::/96
  if (b[0] === 0x20 && b[1] === 0x02) return nonPublicReason(embedded(2)); // 6to4 2002::/16
  return V6_BLOCKED.find((r) => inRange(b, r))?.[2] ?? null;
}

// ---------------------------------------------------------------- the URL rule

export type UrlVerdict = { ok: true; url: URL } | { ok: false; malformed: boolean; reason: string };

/**
 * The webhook URL rule. `malformed` is true when the text is not an absolute URL at all (400
 * invalid_request); otherwise a refusal is `invalid_webhook_url`.
 */
export async function checkWebhookUrl(text: string, opts: { allowDevelopmentHosts?: boolean } = { allowDevelopmentHosts: true }): Promise<UrlVerdict> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, malformed: true, reason: 'url must be an absolute URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, malformed: false, reason: 'url must use HTTPS' };
  }
  const host = bareHost(url);
  if (!host) return { ok: false, malformed: true, reason: 'url must name a host' };
  if (DEVELOPMENT_HOSTS.has(host)) {
    // The source's development exception; in production only test workspaces get it (else it is a way into our own ports).
    return opts.allowDevelopmentHosts ? { ok: true, url } : { ok: false, malformed: false, reason: 'url must be a public HTTPS address (localhost is accepted only in test workspaces)' };
  }
  if (url.protocol !== 'https:') {
    return { ok: false, malformed: false, reason: 'url must use HTTPS (plain http is accepted only for localhost and 127.0.0.1)' };
  }
  const problem = await hostProblem(host);
  return problem ? { ok: false, malformed: false, reason: problem } : { ok: true, url };
}

/** Null when every address of the host is public; otherwise why the host is refused. */
export async function hostProblem(host: string): Promise<string | null> {
  if (isIP(host)) {
    const why = nonPublicReason(host);
    return why ? `url host ${host} is not a public address (${why})` : null;
  }
  let addresses: ResolvedAddress[];
  try {
    addresses = await resolveHost(host);
  } catch (e) {
    const code = (e as { code?: string }).code;
    return `url host ${host} could not be resolved${code ? ` (${code})` : ''}`;
  }
  if (!addresses.length) return `url host ${host} could not be resolved`;
  for (const a of addresses) {
    const why = nonPublicReason(a.address);
    if (why) return `url host ${host} resolves to a non-public address (${why})`;
  }
  return null;
}
