import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, dirname } from 'node:path';
import express, { type Router } from 'express';
import { loadSpec, SPEC_PATH } from '../../http/spec';

// The contract and the reference, served by the API itself (no credential): GET /openapi.yaml (the
// hand-written file, byte for byte), GET /openapi.json (the same document as JSON) and GET /docs (the
// reference built by `npm run docs`, which `npm start` builds when it is missing or older than the
// contract). Read once (per change of the file for the YAML and the page), then answered from memory.
//
// The built page names the production address (the contract's first server), so the published
// reference keeps it. This server's /docs offers its own address instead: first in the servers list
// (production stays, second) and in every code sample, OAuth URL and example that names production, so
// a sample copied from a self-hosted server's /docs runs against that server. Its own address is
// PUBLIC_BASE_URL when set (behind a proxy, the address clients use), otherwise the address the reader
// asked for: the request's scheme (X-Forwarded-Proto only under TRUST_PROXY) and Host.

export const DOCS_PATH = join(dirname(SPEC_PATH), 'docs-site', 'index.html');

interface Cached {
  mtimeMs: number;
  body: Buffer;
}

function cachedFile(path: string, transform: (text: Buffer) => Buffer = (b) => b): () => Cached | null {
  let cached: Cached | null = null;
  return () => {
    if (!existsSync(path)) return null;
    const { mtimeMs } = statSync(path);
    if (!cached || cached.mtimeMs !== mtimeMs) cached = { mtimeMs, body: transform(readFileSync(path)) };
    return cached;
  };
}

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
  let pages = new Map<string, Buffer>();
  let pagesOf: Buffer | undefined;
  const pageFor = (body: Buffer, base: string): Buffer => {
    if (pagesOf !== body) [pages, pagesOf] = [new Map(), body];
    let page = pages.get(base);
    if (!page) {
      page = Buffer.from(pageForBase(body.toString('utf8'), production, base));
      if (pages.size >= 8) pages.delete(pages.keys().next().value!);
      pages.set(base, page);
    }
    return page;
  };
  const yamlFile = cachedFile(SPEC_PATH);
  // The JSON form comes from the contract this process already parsed (never a second YAML parse:
  // that took about 0.85 s of the event loop on the first GET /openapi.json).
  let json: Buffer | undefined;
  const jsonFile = () => ({ body: (json ??= Buffer.from(JSON.stringify(loadSpec()))) });
  const docsFile = cachedFile(DOCS_PATH);
  const common = { 'Cache-Control': 'public, max-age=300', 'X-Content-Type-Options': 'nosniff', 'Access-Control-Allow-Origin': '*' };

  router.get('/openapi.yaml', (_req, res) => {
    res.set({ ...common, 'Content-Type': 'application/yaml; charset=utf-8' }).send(yamlFile()!.body);
  });
  router.get('/openapi.json', (_req, res) => {
    res.set({ ...common, 'Content-Type': 'application/json; charset=utf-8' }).send(jsonFile()!.body);
  });
  router.get(['/docs', '/docs/'], (req, res) => {
    const page = docsFile();
    if (!page) {
      res.status(404).set({ 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }).send('The reference is not built on this server: run `npm run docs`.\n');
      return;
    }
    // Redoc's inlined bundle needs its inline scripts and styles; the page may not be framed elsewhere.
    const base = opts.publicBaseUrl ?? `${req.protocol}://${req.get('host') ?? ''}`;
    if (!opts.publicBaseUrl) res.vary('Host').vary('X-Forwarded-Proto');
    res.set({ 'Cache-Control': 'public, max-age=300', 'X-Content-Type-Options': 'nosniff', 'Content-Security-Policy': "frame-ancestors 'none'", 'Content-Type': 'text/html; charset=utf-8' }).send(pageFor(page.body, base));
  });
  return router;
}
