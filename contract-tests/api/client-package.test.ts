import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { createHmac } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE, type Harness, type Tenant } from '../support/harness';
import { startServedHarness } from '../support/served';

// The package partners install: `npm run pack:client` makes a tarball; a fresh folder outside this
// repository installs it with npm and uses it from plain `node` (ESM, no TypeScript loader) against
// the running server, and from TypeScript (NodeNext resolution, as a plain ESM project has), and by
// require() from a default (CommonJS) project, in JavaScript and TypeScript. Once,
// on PostgreSQL: the package does not depend on the engine.

const ROOT = resolve(__dirname, '..', '..');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
let work: string;
let app: string;
let served: Awaited<ReturnType<typeof startServedHarness>>;
let base: string;
let h: Harness;
let t: Tenant;

describe.skipIf(ENGINE !== 'pg')('the client package, installed from its tarball (pg)', () => {
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'client-pkg-'));
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-client.mjs')], { cwd: ROOT, stdio: 'pipe' });
    execFileSync('npm', ['pack', join(ROOT, 'dist', 'client-package'), '--pack-destination', work, '--silent'], { cwd: ROOT, stdio: 'pipe' });
    const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'))!;
    app = join(work, 'partner-app');
    execFileSync('mkdir', ['-p', app]);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'partner-app', private: true, type: 'module' }));
    execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--silent', join(work, tarball)], { cwd: app, stdio: 'pipe' });
    served = await startServedHarness();
    ({ h, base } = served);
    t = await h.tenant('Package Partners');
  }, 180_000);
  afterAll(async () => {
    await served?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('plain node imports it and calls the running server: create, read back, an error envelope, a webhook signature', async () => {
    writeFileSync(join(app, 'main.mjs'), `
import { createClient } from 'deal-funding-api/client';
import { constructEvent } from 'deal-funding-api/webhooks';
const api = createClient({ baseUrl: process.env.BASE, apiKey: process.env.KEY });
const created = await api.POST('/v1/businesses', { body: { legal_name: 'Packaged LLC' }, params: { header: { 'Idempotency-Key': 'pkg-1' } } });
const got = await api.GET('/v1/businesses/{id}', { params: { path: { id: created.data.data.id } } });
const missing = await api.GET('/v1/businesses/{id}', { params: { path: { id: 'biz_01JD1A2B3C4D5E6F7G8H9J0K1M' } } });
const event = constructEvent(process.env.BODY, process.env.SIG, [process.env.SECRET], { now: Number(process.env.NOW) });
console.log(JSON.stringify({ id: got.data.data.id, name: got.data.data.legal_name, status: missing.response.status, code: missing.error.error.code, event: event.id }));
`);
    const body = JSON.stringify({ id: 'evt_123', type: 'deal.created', data: {} });
    const ts = 1_800_000_000;
    const sig = `t=${ts},v1=${createHmac('sha256', 'whsec_test').update(`${ts}.${body}`).digest('hex')}`;
    // Asynchronously: the server answering it runs in this process.
    const run = await promisify(execFile)(process.execPath, ['main.mjs'], {
      cwd: app, encoding: 'utf8', env: { PATH: process.env.PATH, BASE: base, KEY: t.keys.admin, BODY: body, SIG: sig, SECRET: 'whsec_test', NOW: String(ts * 1000) },
    });
    expect(run.stderr).toBe('');
    const out = JSON.parse(run.stdout);
    expect(out).toMatchObject({ name: 'Packaged LLC', status: 404, code: 'resource_missing', event: 'evt_123' });
    expect(out.id).toMatch(/^biz_/);
  });

  it('require() works in a default (CommonJS) project: the package exports both conditions, and the CJS build calls the server, pages and verifies', async () => {
    const pkg = JSON.parse(readFileSync(join(app, 'node_modules', 'deal-funding-api', 'package.json'), 'utf8'));
    expect(pkg.exports['./client']).toEqual({
      import: { types: './types/src/client.d.ts', default: './client.js' },
      require: { types: './types-cjs/src/client.d.cts', default: './client.cjs' },
    });
    const cjs = join(app, 'cjs-app');
    mkdirSync(cjs, { recursive: true });
    writeFileSync(join(cjs, 'package.json'), JSON.stringify({ name: 'cjs-app', version: '1.0.0', main: 'index.js' })); // as `npm init -y` writes it: no "type"
    writeFileSync(join(cjs, 'index.js'), `
const { createClient } = require('deal-funding-api/client');
const { constructEvent } = require('deal-funding-api/webhooks');
const api = createClient({ baseUrl: process.env.BASE, apiKey: process.env.KEY });
(async () => {
  for (const n of [1, 2, 3]) await api.POST('/v1/businesses', { body: { legal_name: 'Required ' + n + ' LLC' } });
  const names = [];
  for await (const b of api.paginate('/v1/businesses', { params: { query: { limit: 2 } } })) names.push(b.legal_name);
  const event = constructEvent(process.env.BODY, process.env.SIG, [process.env.SECRET], { now: Number(process.env.NOW) });
  console.log(JSON.stringify({ names: names.filter((x) => x.startsWith('Required')).sort(), event: event.id }));
})().catch((e) => { console.error(e); process.exit(1); });
`);
    const body = JSON.stringify({ id: 'evt_cjs', type: 'deal.created', data: {} });
    const ts = 1_800_000_000;
    const sig = `t=${ts},v1=${createHmac('sha256', 'whsec_test').update(`${ts}.${body}`).digest('hex')}`;
    const fresh = await h.tenant('Required Partners');
    const run = await promisify(execFile)(process.execPath, ['index.js'], {
      cwd: cjs, encoding: 'utf8', env: { PATH: process.env.PATH, BASE: base, KEY: fresh.keys.admin, BODY: body, SIG: sig, SECRET: 'whsec_test', NOW: String(ts * 1000) },
    });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({ names: ['Required 1 LLC', 'Required 2 LLC', 'Required 3 LLC'], event: 'evt_cjs' });
  });

  it('TypeScript in a CommonJS project (module node16) gets the types through require', { timeout: 120_000 }, () => {
    const cjs = join(app, 'cjs-app');
    writeFileSync(join(cjs, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { module: 'node16', moduleResolution: 'node16', target: 'es2022', strict: true, noEmit: true, lib: ['es2023', 'dom'], types: ['node'], typeRoots: [join(ROOT, 'node_modules', '@types')] },
      include: ['*.ts'],
    }));
    writeFileSync(join(cjs, 'main.ts'), `import { createClient, type Deal } from 'deal-funding-api/client';
const api = createClient({ baseUrl: 'http://127.0.0.1:3000', apiKey: 'svc_test_x', retry: { maxRetries: 2 } });
async function main(): Promise<void> {
  for await (const d of api.paginate('/v1/deals', { params: { query: { limit: 10 } } })) { const deal: Deal = d; console.log(deal.id); }
}
void main();
`);
    const ok = spawnSync(process.execPath, [TSC, '-p', '.'], { cwd: cjs, encoding: 'utf8' });
    expect(ok.stdout + ok.stderr).toBe('');
  });

  // One tsc run over two files (a whole run is 15-30 s on a loaded machine, past the default 30 s
  // test timeout): the right call in main.ts compiles, the wrong path parameter in wrong.ts does not,
  // and every error is wrong.ts's.
  it('TypeScript (NodeNext) sees the contract through it: a right call compiles, a wrong path parameter does not', { timeout: 120_000 }, () => {
    writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, noEmit: true, lib: ['es2023', 'dom'], types: ['node'], typeRoots: [join(ROOT, 'node_modules', '@types')] },
      include: ['*.ts'],
    }));
    writeFileSync(join(app, 'main.ts'), `import { createClient, type Deal } from 'deal-funding-api/client';
import { verifyWebhookSignature } from 'deal-funding-api/webhooks';
const api = createClient({ baseUrl: 'http://127.0.0.1:3000', apiKey: 'svc_live_x' });
const r = await api.GET('/v1/deals/{id}', { params: { path: { id: 'deal_x' } } });
const d: Deal | undefined = r.data?.data;
console.log(d?.status, verifyWebhookSignature);
`);
    writeFileSync(join(app, 'wrong.ts'), `import { createClient } from 'deal-funding-api/client';
const api = createClient({ baseUrl: 'http://127.0.0.1:3000', apiKey: 'svc_live_x' });
await api.GET('/v1/deals/{id}', { params: { path: { dealId: 'deal_x' } } });
`);
    const run = spawnSync(process.execPath, [TSC, '-p', '.'], { cwd: app, encoding: 'utf8' });
    expect(run.status).not.toBe(0);
    const errors = run.stdout.split('\n').filter((l) => /error TS\d+/.test(l));
    expect(errors.length, run.stdout).toBeGreaterThan(0);
    expect(errors.filter((l) => !l.startsWith('wrong.ts(')), run.stdout).toEqual([]);
    expect(run.stdout).toMatch(/dealId/);
    expect(run.stderr).toBe('');
  });
});
