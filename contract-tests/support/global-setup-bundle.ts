import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { oncePerRun } from './once-per-run';

const ROOT = new URL('../..', import.meta.url).pathname;

/**
 * The server, CLI and seed bundled once per run (`scripts/build.mjs`, what `npm start` runs), so
 * tests start child processes with plain `node` (about 0.4 s) instead of `tsx` (1.1-1.7 s, a
 * transpiler thread in every process). The folder sits inside the repository (the bundle's
 * packages resolve from node_modules) under the ignored `tmp/`, one per run (shared by the projects).
 */
export default async function setup(project: TestProject) {
  const { value: dir, release } = await oncePerRun('bundle', async () => {
    mkdirSync(join(ROOT, 'tmp'), { recursive: true });
    const dir = mkdtempSync(join(ROOT, 'tmp', 'bundle-'));
    const r = spawnSync(process.execPath, ['scripts/build.mjs', '--outdir', dir], { cwd: ROOT, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`scripts/build.mjs failed: ${r.stderr || r.error?.message}`);
    return { value: dir, teardown: () => rmSync(dir, { recursive: true, force: true }) };
  });
  project.provide('bundleDir', dir);
  return release;
}

declare module 'vitest' {
  export interface ProvidedContext {
    bundleDir: string;
  }
}
