import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { oncePerRun, startOncePerRun } from './once-per-run';

const ROOT = new URL('../..', import.meta.url).pathname;

/**
 * The reference page /docs serves (docs-site/index.html), built once per run from this checkout's
 * contract by `npm run docs` (scripts/docs.mjs, what `npm start` builds too). reference.test.ts and
 * reference-browser.test.ts serve it; each built it before (a Redocly build, about 6 CPU-s), the one
 * only when it was missing (a page from an older checkout was kept), the other every time. The
 * database setups start the build (`startDocs`) before their own work, so the two overlap.
 * (contract-tests/spec/docs.test.ts builds its own copy: it checks the command itself.)
 */
export default async function setup(project: TestProject) {
  const { value: page, release } = await oncePerRun('docs', buildDocsPage);
  project.provide('docsPage', page);
  return release;
}

/** Starts the build in the background (the api projects list this file after their database setup). */
export function startDocs(): void {
  startOncePerRun('docs', buildDocsPage);
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
    docsPage: string;
  }
}
