import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import express, { type Request, type Response, type Router } from 'express';
import { loadSpec, SPEC_PATH } from '../../http/spec';

// The contract and the reference, served by the API itself (no credential): GET /openapi.yaml (the
// hand-written file, byte for byte), GET /openapi.json (the same document as JSON) and GET /docs (the
// reference built by `npm run docs`, which `npm start` builds when it is missing or older than the
// contract). Read once (per change of the file for the YAML and the page), then answered from memory:
// compressed (br, else gzip, when the client accepts it; each encoding made once, off the event loop)
// and revalidated (a strong ETag per encoding; `If-None-Match` answers 304 with no body).
// GET / points at the reference: a browser (or curl) is redirected to /docs, a client that asks for
// JSON only gets the addresses of the reference and the contract.
//
// The built page names the production address (the contract's first server), so the published
// reference keeps it. This server's /docs offers its own address instead: first in the servers list
// (production stays, second) and in every code sample, OAuth URL and example that names production, so
// a sample copied from a self-hosted server's /docs runs against that server. Its own address is
// PUBLIC_BASE_URL when set (behind a proxy, the address clients use), otherwise the address the reader
// asked for: the request's scheme (X-Forwarded-Proto only under TRUST_PROXY) and Host. Each address's
// page is one Representation (its own ETag and encodings), a few kept, the oldest dropped.

export const DOCS_PATH = join(dirname(SPEC_PATH), 'docs-site', 'index.html');

/** Smaller bodies are sent as they are (compression would save less than its headers cost). */
const MIN_COMPRESS = 1024;
const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

type Encoding = 'br' | 'gzip' | 'identity';

class Representation {
  readonly etag: string;
  private encoded = new Map<Encoding, Promise<Buffer>>();
  constructor(readonly body: Buffer) {
    this.etag = createHash('sha256').update(body).digest('base64url').slice(0, 27);
  }
  tag(enc: Encoding): string {
    return `"${this.etag}${enc === 'identity' ? '' : `-${enc}`}"`;
  }
  encode(enc: Encoding): Promise<Buffer> {
    if (enc === 'identity') return Promise.resolve(this.body);
    let p = this.encoded.get(enc);
    if (!p) {
      // Quality 9 for brotli: 11 takes seconds of a core on the 3 MB page for a few per cent.
      p = enc === 'br' ? brotli(this.body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 9, [zlib.BROTLI_PARAM_SIZE_HINT]: this.body.length } }) : gz(this.body, { level: 9 });
      this.encoded.set(enc, p);
      p.catch(() => this.encoded.delete(enc));
    }
    return p;
  }
}

/** The encoding to send: br, then gzip, when accepted with a non-zero q (`*` counts); else identity. */
export function pickEncoding(header: string | undefined): Encoding {
  const accepted = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)).find(Boolean);
    accepted.set(name.trim(), q ? Number(q[1]) : 1);
  }
  const ok = (enc: string) => (accepted.get(enc) ?? accepted.get('*') ?? 0) > 0;
  if (ok('br')) return 'br';
  if (ok('gzip')) return 'gzip';
  return 'identity';
}

function cachedFile(path: string): () => Representation | null {
  let cached: { mtimeMs: number; rep: Representation } | null = null;
  return () => {
    if (!existsSync(path)) return null;
    const { mtimeMs } = statSync(path);
    if (!cached || cached.mtimeMs !== mtimeMs) cached = { mtimeMs, rep: new Representation(readFileSync(path)) };
    return cached.rep;
  };
}

/** Sends `rep` compressed when accepted, with its ETag; a matching If-None-Match is a 304. */
async function send(req: Request, res: Response, rep: Representation, headers: Record<string, string>): Promise<void> {
  const enc = rep.body.length < MIN_COMPRESS ? 'identity' : pickEncoding(req.get('accept-encoding'));
  res.set({ ...headers, ETag: rep.tag(enc) }).vary('Accept-Encoding');
  const inm = req.get('if-none-match');
  if (inm) {
    const tags = inm.split(',').map((t) => t.trim().replace(/^W\//, ''));
    // Any encoding of the same bytes is still fresh (a cache may hold the gzip one and ask with its tag).
    if (tags.includes('*') || tags.some((t) => t.startsWith(`"${rep.etag}`) && [rep.tag('identity'), rep.tag('gzip'), rep.tag('br')].includes(t))) {
      res.status(304).end();
      return;
    }
  }
  let body: Buffer;
  try {
    body = await rep.encode(enc);
  } catch {
    body = rep.body;
    res.set('ETag', rep.tag('identity'));
  }
  if (body !== rep.body) res.set('Content-Encoding', enc);
  res.send(body);
}

/**
 * The reference's Content-Security-Policy: Redoc's inlined bundle needs its inline scripts and styles;
 * everything else may come only from this origin (so even a script that tried could not call out:
 * no remote scripts, styles, fonts, images or connections), and the page may not be framed elsewhere.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self' blob:",
  "worker-src 'self' blob:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** An address safe to write into the page (a JSON string inside HTML): scheme, host, port and a plain path. */
const SAFE_BASE = /^https?:\/\/(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?(?:\/[A-Za-z0-9._~/-]*)?$/;

/**
 * The reference page as a server at `base` offers it: `base` first in the servers list (described as
 * this server, production kept after it) and in place of the production address everywhere else.
 */
export function pageForBase(page: string, production: string, base: string): string {
  const own = base.replace(/\/+$/, '');
  if (own === production || !SAFE_BASE.test(own)) return page;
  const keep = '\u0000production\u0000';
  return page
    .replace(`"servers":[{"url":${JSON.stringify(production)},`, `"servers":[{"url":${JSON.stringify(own)},"description":"This server"},{"url":"${keep}",`)
    .split(production).join(own)
    .split(keep).join(production);
}

export function referenceRoutes(opts: { publicBaseUrl?: string } = {}): Router {
  const router = express.Router();
  const production = (loadSpec() as { servers?: { url: string }[] }).servers?.[0]?.url ?? 'https://api.svc.example';
  // Per address, the substituted page (a few, the oldest dropped: Host is the client's to choose).
  let pages = new Map<string, Representation>();
  let pagesOf: Representation | undefined;
  const pageFor = (built: Representation, base: string): Representation => {
    if (pagesOf !== built) [pages, pagesOf] = [new Map(), built];
    let page = pages.get(base);
    if (!page) {
      const text = pageForBase(built.body.toString('utf8'), production, base);
      page = text === built.body.toString('utf8') ? built : new Representation(Buffer.from(text));
      if (pages.size >= 8) pages.delete(pages.keys().next().value!);
      pages.set(base, page);
    }
    return page;
  };
  const yamlFile = cachedFile(SPEC_PATH);
  // The JSON form comes from the contract this process already parsed (never a second YAML parse:
  // that took about 0.85 s of the event loop on the first GET /openapi.json).
  let json: Representation | undefined;
  const jsonFile = () => (json ??= new Representation(Buffer.from(JSON.stringify(loadSpec()))));
  const docsFile = cachedFile(DOCS_PATH);
  const common = { 'Cache-Control': 'public, max-age=300', 'X-Content-Type-Options': 'nosniff', 'Access-Control-Allow-Origin': '*' };

  router.get('/', (req, res) => {
    res.set({ 'Cache-Control': 'public, max-age=300', Vary: 'Accept' });
    // A client that asks for JSON (and not HTML) gets where things are; everyone else the reference.
    if (req.accepts(['html', 'json']) === 'json' && !req.accepts('html')) {
      res.json({ reference: '/docs', openapi_yaml: '/openapi.yaml', openapi_json: '/openapi.json', api: '/v1' });
      return;
    }
    res.redirect(302, '/docs');
  });
  router.get('/openapi.yaml', (req, res, next) => {
    send(req, res, yamlFile()!, { ...common, 'Content-Type': 'application/yaml; charset=utf-8' }).catch(next);
  });
  router.get('/openapi.json', (req, res, next) => {
    send(req, res, jsonFile(), { ...common, 'Content-Type': 'application/json; charset=utf-8' }).catch(next);
  });
  router.get(['/docs', '/docs/'], (req, res, next) => {
    const page = docsFile();
    if (!page) {
      res.status(404).set({ 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }).send('The reference is not built on this server: run `npm run docs`.\n');
      return;
    }
    const base = opts.publicBaseUrl ?? `${req.protocol}://${req.get('host') ?? ''}`;
    if (!opts.publicBaseUrl) res.vary('Host').vary('X-Forwarded-Proto');
    send(req, res, pageFor(page, base), { 'Cache-Control': 'public, max-age=300', 'X-Content-Type-Options': 'nosniff', 'Content-Security-Policy': DOCS_CSP, 'Content-Type': 'text/html; charset=utf-8' }).catch(next);
  });
  return router;
}
