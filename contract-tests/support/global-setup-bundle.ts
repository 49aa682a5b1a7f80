import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { oncePerRun, startOncePerRun } from './once-per-run';

const ROOT = new URL('../..', import.meta.url).pathname;

/**
 * The server, CLI and seed bundled once per run (`scripts/build.mjs`, what `npm start` runs), so
 * tests start child processes with plain `node` (about 0.4 s) instead of `tsx` (1.1-1.7 s, a
 * transpiler thread in every process). The folder sits inside the repository (the bundle's
 * packages resolve from node_modules) under the ignored `tmp/`, one per run (shared by the projects).
 * The database setups start the build (`startBundle`) before their own work, so the two overlap.
 */
export default async function setup(project: TestProject) {
  const { value: dir, release } = await oncePerRun('bundle', buildBundle);
  project.provide('bundleDir', dir);
  return release;
}

/** Starts the bundle's build in the background (the api projects list this file after their database setup). */
export function startBundle(): void {
  startOncePerRun('bundle', buildBundle);
}

async function buildBundle() {
  mkdirSync(join(ROOT, 'tmp'), { recursive: true });
  const dir = mkdtempSync(join(ROOT, 'tmp', 'bundle-'));
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ['scripts/build.mjs', '--outdir', dir], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', (e) => reject(new Error(`scripts/build.mjs failed: ${e.message}`)));
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`scripts/build.mjs failed: ${stderr}`))));
  });
  return { value: dir, teardown: () => rmSync(dir, { recursive: true, force: true }) };
}

declare module 'vitest' {
  export interface ProvidedContext {
    bundleDir: string;
  }
}
