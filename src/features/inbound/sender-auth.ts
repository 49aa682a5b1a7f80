import { promises as dns } from 'node:dns';
// mailauth's sub-modules, not its index (which also loads BIMI and its HTTP client). mailauth 4.x:
// its 5.x and later releases need Node 22.19, and this project runs on Node 20 too. Imported by the
// first message that needs them, not at start (~0.13 s of CPU, the Public Suffix List among it).
type GetAlignment = (fromDomain: string, domains: string[], strict?: boolean) => { domain: string } | false;
const mailauth = {
  dkimVerify: async () => (await import('mailauth/lib/dkim/verify.js')).dkimVerify,
  spf: async () => (await import('mailauth/lib/spf/index.js')).spf,
  getAlignment: async (): Promise<GetAlignment> => {
    // @ts-expect-error no type declarations for this sub-module (its relaxed-alignment rule, on the Public Suffix List)
    const tools = (await import('mailauth/lib/tools.js')) as { getAlignment?: GetAlignment; default: { getAlignment: GetAlignment } };
    return tools.getAlignment ?? tools.default.getAlignment;
  },
};

// Who really sent a lender reply. The From header is the sender's own word; a reply is applied
// unseen only when the From domain is authenticated (DMARC-style relaxed alignment: the two share an
// organizational domain) by
//  - DKIM: a passing signature whose d= aligns with the From domain, or
//  - SPF: a pass for an envelope sender (MAIL FROM) whose domain aligns with it,
// either checked by our own SMTP listener on the connection it received (`verifyOnListener`), or
// reported by a trusted relay in its Authentication-Results header (`fromTrustedHeader`: the HTTP
// hook, or a listener behind a relay). Anything else is stored and classified but waits for review
// (`review_reason: sender_unauthenticated`).

/** A DNS lookup as mailauth calls it (tests serve TXT records from a table). */
export type DnsResolver = (domain: string, rrtype: string) => Promise<string[][] | string[]>;
export const systemResolver: DnsResolver = (domain, rrtype) => dns.resolve(domain, rrtype) as Promise<string[][] | string[]>;

export interface SenderAuth {
  /** Domains that passed: DKIM d=, the SPF-checked envelope sender's domain, a DMARC-passed From domain. */
  domains: string[];
  /** Where the verdict came from, for the log. */
  via: 'listener' | 'relay' | 'none';
}

export const NO_AUTH: SenderAuth = { domains: [], via: 'none' };

const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1).trim().toLowerCase().replace(/\.$/, '');

/** Whether `auth` authenticates the From address `from` (relaxed alignment). */
export async function isAligned(auth: SenderAuth, from: string): Promise<boolean> {
  const fromDomain = domainOf(from);
  if (!fromDomain || !auth.domains.length) return false;
  const getAlignment = await mailauth.getAlignment();
  return !!getAlignment(fromDomain, auth.domains, false);
}

/** The listener's own check of a message it received from `ip` (DKIM on the bytes, SPF on the envelope). */
export async function verifyOnListener(
  raw: Buffer,
  opts: { ip: string; helo?: string; mailFrom?: string; resolver?: DnsResolver; now: Date },
): Promise<SenderAuth> {
  const resolver = opts.resolver ?? systemResolver;
  const domains: string[] = [];
  try {
    const dkimVerify = await mailauth.dkimVerify();
    const dkim = await dkimVerify(raw, { resolver, curTime: opts.now });
    for (const r of dkim.results) if (r.status.result === 'pass' && r.signingDomain) domains.push(r.signingDomain.toLowerCase());
  } catch {
    // an unreadable signature is no signature
  }
  if (opts.mailFrom && opts.mailFrom.includes('@')) {
    try {
      // At most 10 DNS lookups (mailauth's limit) and 10 s in all.
      let timer: NodeJS.Timeout | undefined;
      const budget = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('SPF check took over 10 s')), 10_000);
        timer.unref();
      });
      const spf = await mailauth.spf();
      const result = await Promise.race([spf({ sender: opts.mailFrom, ip: opts.ip, helo: opts.helo, resolver }), budget]).finally(() => clearTimeout(timer));
      if (result.status.result === 'pass') domains.push(domainOf(opts.mailFrom));
    } catch {
      // a DNS failure is no pass
    }
  }
  return { domains: [...new Set(domains)], via: 'listener' };
}

/** The header block of a raw message, unfolded, as [lower-case name, value] in order (top first). */
function headerFields(raw: Buffer): [string, string][] {
  const text = raw.subarray(0, Math.min(raw.length, 256 * 1024)).toString('latin1');
  const end = text.search(/\r?\n\r?\n/);
  const head = end < 0 ? text : text.slice(0, end);
  const out: [string, string][] = [];
  for (const line of head.split(/\r?\n/)) {
    if (/^[ \t]/.test(line) && out.length) out[out.length - 1][1] += ` ${line.trim()}`;
    else {
      const colon = line.indexOf(':');
      if (colon > 0) out.push([line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()]);
    }
  }
  return out;
}

const stripComments = (s: string) => {
  let out = '';
  let depth = 0;
  for (const ch of s) {
    if (ch === '(') depth++;
    else if (ch === ')' && depth > 0) depth--;
    else if (depth === 0) out += ch;
  }
  return out;
};

/**
 * The verdict of a trusted relay: the topmost Authentication-Results field (the one the last hop
 * added), and only when its authserv-id is one of `trusted`. A relay that adds this header must also
 * remove any the sender wrote with its own id (RFC 8601, section 5); one lower down, or one naming
 * another server, is the sender's word and is ignored.
 */
export function fromTrustedHeader(raw: Buffer, trusted: readonly string[]): SenderAuth {
  if (!trusted.length) return NO_AUTH;
  const first = headerFields(raw).find(([name]) => name === 'authentication-results');
  if (!first) return NO_AUTH;
  const parts = stripComments(first[1]).split(';').map((p) => p.trim());
  const servId = (parts[0] ?? '').split(/\s+/)[0].toLowerCase();
  if (!trusted.map((t) => t.toLowerCase()).includes(servId)) return NO_AUTH;
  const domains: string[] = [];
  for (const part of parts.slice(1)) {
    const tokens = part.split(/\s+/).filter(Boolean);
    const [method, result] = (tokens[0] ?? '').toLowerCase().split('=');
    if (result !== 'pass') continue;
    const props = new Map(tokens.slice(1).map((t) => [t.slice(0, t.indexOf('=')).toLowerCase(), t.slice(t.indexOf('=') + 1).replace(/^"|"$/g, '')]));
    if (method === 'dkim') {
      const d = props.get('header.d') ?? (props.get('header.i') ? domainOf(props.get('header.i')!) : undefined);
      if (d) domains.push(d.toLowerCase());
    } else if (method === 'spf') {
      const m = props.get('smtp.mailfrom');
      if (m) domains.push(domainOf(m));
    } else if (method === 'dmarc') {
      const f = props.get('header.from');
      if (f) domains.push(domainOf(f));
    }
  }
  return { domains: [...new Set(domains)], via: 'relay' };
}
