// `npm run build:client`: the package partners install, in dist/client-package/ (then
// `npm pack ./dist/client-package` makes the tarball). Plain JavaScript, ESM (`import`) and CommonJS
// (`require()`, `.cjs`), with declarations for both, so `node` loads it without a TypeScript loader
// in any project and TypeScript sees the contract's types:
//   deal-funding-api/client    createClient (openapi-fetch) and the types generated from openapi.yaml
//   deal-funding-api/webhooks  verifyWebhookSignature, checkWebhookSignature, constructEvent (node:crypto only)
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// `--out DIR` builds elsewhere (a test that installs the package builds its own copy, so two test
// files never rebuild one folder under each other).
const outAt = process.argv.indexOf('--out');
const out = outAt > 0 ? process.argv[outAt + 1] : join(root, 'dist', 'client-package');
const rootPkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

for (const format of ['esm', 'cjs']) {
  await build({
    entryPoints: { client: join(root, 'src/client.ts'), webhooks: join(root, 'src/webhooks-verify.ts') },
    outdir: out,
    outExtension: { '.js': format === 'esm' ? '.js' : '.cjs' },
    bundle: true,
    packages: 'external', // openapi-fetch has both builds; each format requires or imports its own
    platform: 'node',
    format,
    target: 'node20',
    logLevel: 'warning',
  });
}

// Declarations: tsc from the sources, then the generated schema beside them. Relative imports get
// their `.js` so that NodeNext resolution (what a plain ESM project uses) finds them.
const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), 'src/client.ts', 'src/webhooks-verify.ts',
  '--declaration', '--emitDeclarationOnly', '--outDir', join(out, 'types'), '--rootDir', root,
  '--module', 'esnext', '--moduleResolution', 'bundler', '--target', 'es2022', '--strict', '--skipLibCheck', '--types', 'node'], { cwd: root, encoding: 'utf8' });
if (tsc.status !== 0) throw new Error(`tsc (declarations) failed:\n${tsc.stdout}${tsc.stderr}`);
mkdirSync(join(out, 'types', 'generated'), { recursive: true });
copyFileSync(join(root, 'generated', 'schema.d.ts'), join(out, 'types', 'generated', 'schema.d.ts'));
const clientTypes = join(out, 'types', 'src', 'client.d.ts');
writeFileSync(clientTypes, readFileSync(clientTypes, 'utf8').replace(/from '\.\.\/generated\/schema'/g, "from '../generated/schema.js'"));
// The same declarations as `.d.cts` for `require()` (TypeScript reads a `.d.ts` of a `type: module`
// package as ESM, which a CommonJS project may not require).
for (const rel of ['src/client', 'src/webhooks-verify', 'generated/schema']) {
  const text = readFileSync(join(out, 'types', `${rel}.d.ts`), 'utf8').replace(/from '(\.{1,2}\/[^']+)\.js'/g, "from '$1.cjs'");
  mkdirSync(dirname(join(out, 'types-cjs', rel)), { recursive: true });
  writeFileSync(join(out, 'types-cjs', `${rel}.d.cts`), text);
}

const pkg = {
  name: 'deal-funding-api',
  version: rootPkg.version,
  description: 'Typed client and webhook signature verification for the Deal-Funding Platform API v1',
  type: 'module',
  engines: { node: '>=20' },
  exports: {
    './client': {
      import: { types: './types/src/client.d.ts', default: './client.js' },
      require: { types: './types-cjs/src/client.d.cts', default: './client.cjs' },
    },
    './webhooks': {
      import: { types: './types/src/webhooks-verify.d.ts', default: './webhooks.js' },
      require: { types: './types-cjs/src/webhooks-verify.d.cts', default: './webhooks.cjs' },
    },
    './package.json': './package.json',
  },
  files: ['client.js', 'client.cjs', 'webhooks.js', 'webhooks.cjs', 'types', 'types-cjs', 'README.md'],
  dependencies: { 'openapi-fetch': rootPkg.dependencies['openapi-fetch'] },
  license: rootPkg.license ?? 'UNLICENSED',
};
writeFileSync(join(out, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
writeFileSync(join(out, 'README.md'), `# deal-funding-api

Typed client and webhook signature verification for the Deal-Funding Platform API v1 (Node 20+;
ESM \`import\` and CommonJS \`require()\`, with TypeScript declarations for both).

\`\`\`js
const { createClient } = require('deal-funding-api/client'); // or: import { createClient } from 'deal-funding-api/client';

const api = createClient({ baseUrl: 'https://api.svc.example', apiKey: process.env.SVC_API_KEY });

async function main() {
  const { data, error } = await api.GET('/v1/deals', { params: { query: { limit: 10 } } });
  if (error) throw new Error(\`\${error.error.code}: \${error.error.message}\`);
  console.log(data.data);

  // Every deal, page after page (meta.next_cursor); a failed page throws ApiResponseError.
  for await (const deal of api.paginate('/v1/deals', { params: { query: { limit: 100 } } })) console.log(deal.id);
}
main();
\`\`\`

Retries: \`429\`, \`503\`, \`409 idempotency_key_in_use\` and network errors are retried up to
\`retry.maxRetries\` times (default 4), waiting \`Retry-After\` plus a random time between 0 and
min(30 s, 0.5 s × 2^n) before retry n. A \`POST\` sent without an \`Idempotency-Key\` gets one, and
every retry sends the same key, so a request that ran before its answer was lost is not run twice.
A \`PATCH\` is not repeated after a network error (it may have run). \`retry: false\` turns retries
off (to see the sandbox's \`Prefer: code=429\` answer itself, for one); \`retry: { maxRetries, baseDelayMs, maxDelayMs, maxRetryAfterMs, sleep, random, onRetry }\`
tunes them.

\`\`\`js
const { constructEvent } = require('deal-funding-api/webhooks');
// rawBody: the request's exact bytes; header: X-SVC-Signature
const event = constructEvent(rawBody, header, [process.env.SVC_WEBHOOK_SECRET]);
\`\`\`
`);
process.stdout.write(`client package built: ${out}\n`);
