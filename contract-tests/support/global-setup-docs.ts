import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { inject } from 'vitest';
import { oncePerRun, startOncePerRun } from './once-per-run';

const ROOT = new URL('../..', import.meta.url).pathname;

/**
 * The reference page /docs serves (docs-site/index.html), built at most once per run from this
 * checkout's contract by `npm run docs` (scripts/docs.mjs, what `npm start` builds too), and only
 * if a file asks for it (`docsPage()`): reference.test.ts and reference-browser.test.ts each built it
 * before (a Redocly build, about 6 CPU-s), the one only when it was missing (a page from an older
 * checkout was kept), the other every time. A run without them (one api file, CI's Node 24 smoke)
 * builds nothing. The files ask this run's main process over loopback; it answers once the page is
 * written. (contract-tests/spec/docs.test.ts builds its own copy: it checks the command itself.)
 */
export default async function setup(project: TestProject) {
  const { value: url, release } = await oncePerRun('docs-gate', async () => {
    const server = createServer((_req, res) => {
      startOncePerRun('docs', buildDocsPage).value.then(
        (page) => res.end(String(page)),
        (e: Error) => {
          res.statusCode = 500;
          res.end(e.message);
        },
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { value: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, teardown: () => new Promise<void>((r) => server.close(() => r())) };
  });
  project.provide('docsGate', url);
  return release;
}

/** In a test file: builds the page (once per run) and gives its path. */
export async function docsPage(): Promise<string> {
  const res = await fetch(inject('docsGate'));
  const text = await res.text();
  if (!res.ok) throw new Error(text);
  return text;
}

async function buildDocsPage() {
  const page = join(ROOT, 'docs-site', 'index.html');
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ['scripts/docs.mjs', '--out', page], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', (e) => reject(new Error(`scripts/docs.mjs failed: ${e.message}`)));
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`scripts/docs.mjs failed: ${stderr}`))));
  });
  // Kept, as `npm run docs` leaves it (ignored by git, served by `npm start`).
  return { value: page, teardown: () => undefined };
}

declare module 'vitest' {
  export interface ProvidedContext {
    docsGate: string;
  }
}
