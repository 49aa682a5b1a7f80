// Bundles the server and the operator tools to dist/ (plain JavaScript; packages stay external), so
// `npm start` runs compiled code: no TypeScript transpiling at start and no loader thread in the
// server process. About 0.2 s; `npm start` runs it first, so the served code is never stale.
import { build } from 'esbuild';

// `--outdir DIR` bundles elsewhere (tests that run the bundle in parallel each build their own copy;
// DIR must sit inside this folder so that the packages resolve from node_modules).
const at = process.argv.indexOf('--outdir');
const outdir = at > 0 ? process.argv[at + 1] : 'dist';

await build({
  entryPoints: { server: 'src/server.ts', worker: 'src/worker.ts', cli: 'src/cli/index.ts', seed: 'src/cli/seed.ts', 'inbound-smtp': 'src/inbound-smtp.ts',
    // Untrusted files are read in child processes (src/lib/isolated.ts) whose entries the bundle
    // starts from beside itself: statement PDFs, and the submission package.
    'pdf-text.child': 'src/features/statements/pdf-text.child.mjs', 'package.child': 'src/features/submissions/package.child.ts' },
  outdir,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  packages: 'external',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
});

// `--docs` (npm start): the reference the server serves at /docs, built when it is missing or older
// than the contract (about 3 s). A failure is reported and does not stop the start.
if (process.argv.includes('--docs')) {
  const { existsSync, statSync } = await import('node:fs');
  const page = 'docs-site/index.html';
  if (!existsSync(page) || statSync(page).mtimeMs < statSync('openapi.yaml').mtimeMs) {
    try {
      const { buildDocs } = await import('./docs.mjs');
      buildDocs();
    } catch (err) {
      process.stderr.write(`The reference (/docs) was not built: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}\n`);
    }
  }
}
