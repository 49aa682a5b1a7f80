import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, dirname } from 'node:path';
import express, { type Router } from 'express';
import { loadSpec, SPEC_PATH } from '../../http/spec';

// The contract and the reference, served by the API itself (no credential): GET /openapi.yaml (the
// hand-written file, byte for byte), GET /openapi.json (the same document as JSON) and GET /docs (the
// reference built by `npm run docs`, which `npm start` builds when it is missing or older than the
// contract). Read once (per change of the file for the YAML and the page), then answered from memory.

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

export function referenceRoutes(): Router {
  const router = express.Router();
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
  router.get(['/docs', '/docs/'], (_req, res) => {
    const page = docsFile();
    if (!page) {
      res.status(404).set({ 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }).send('The reference is not built on this server: run `npm run docs`.\n');
      return;
    }
    // Redoc's inlined bundle needs its inline scripts and styles; the page may not be framed elsewhere.
    res.set({ 'Cache-Control': 'public, max-age=300', 'X-Content-Type-Options': 'nosniff', 'Content-Security-Policy': "frame-ancestors 'none'", 'Content-Type': 'text/html; charset=utf-8' }).send(page.body);
  });
  return router;
}
