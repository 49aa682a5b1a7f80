import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { allSamples } from '../../scripts/code-samples.mjs';
import { setMailbox } from '../../src/mail/mailbox';
import { ENGINE, type Harness, type Tenant } from '../support/harness';
import { startServedHarness } from '../support/served';

// The reference's code samples, run as a partner pastes them: the curl one by `sh`, the TypeScript one
// by tsx in a fresh `npm init -y` project (CommonJS, no tsconfig) with the client package installed,
// the Python one by python3 with nothing installed. The only change is the one the samples document:
// SVC_API_KEY in the environment and the production address replaced by this server's (what its /docs
// does itself). The ids in the contract's examples are made real: each record the samples name is
// created through the API and its id then set to the example's. Once, on the embedded database: the
// samples do not depend on the engine.

const ROOT = resolve(__dirname, '..', '..');
const PRODUCTION = 'https://api.svc.example';
const spec = parse(readFileSync(join(ROOT, 'openapi.yaml'), 'utf8'));
const samples = allSamples(spec);
const exec = promisify(execFile);

/** A representative set: a create with a body, a filtered list, a create naming other records, a create under a path id, a read by id. */
const SET = ['createBusiness', 'listDeals', 'createDeal', 'createDealSubmissions', 'getEvent'];

let served: Awaited<ReturnType<typeof startServedHarness>>;
let h: Harness;
let t: Tenant;
let base: string;
let work: string;
let project: string;
let clientCjs = false;

/** Gives a row the id the contract's examples use, and every row pointing at it (foreign keys found in the catalogue). */
async function renameId(table: string, from: string, to: string) {
  await h.knex.transaction(async (trx) => {
    await trx.raw('SET LOCAL session_replication_role = replica');
    const refs = await trx.raw(
      `SELECT cl.relname AS tbl, att.attname AS col FROM pg_constraint c
         JOIN pg_class cl ON cl.oid = c.conrelid
         JOIN pg_attribute att ON att.attrelid = c.conrelid AND att.attnum = ANY (c.conkey)
        WHERE c.contype = 'f' AND c.confrelid = ?::regclass`,
      [table],
    );
    for (const r of refs.rows as { tbl: string; col: string }[]) await trx(r.tbl).where(r.col, from).update({ [r.col]: to });
    expect(await trx(table).where({ id: from }).update({ id: to })).toBe(1);
  });
}

async function api(method: 'post' | 'put', path: string, body: object) {
  const res = await h.api[method](path).set(t.auth('admin')).set('Idempotency-Key', `fixture-${Math.random()}`).send(body);
  expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body.data;
}

/** Every id the representative samples name, made real in the tenant's location. */
async function fixtures() {
  const create = samples.find((s) => s.operationId === 'createDeal')!.samples[0].source;
  const sub = samples.find((s) => s.operationId === 'createDealSubmissions')!.samples[0].source;
  const ev = samples.find((s) => s.operationId === 'getEvent')!.samples[0].source;
  const ids = (text: string, prefix: string) => [...new Set(text.match(new RegExp(`${prefix}_[0-9A-Za-z-]+`, 'g')) ?? [])];
  const [bizId] = ids(create, 'biz');
  const [originator, closer] = ids(create, 'usr');
  const [dealId] = ids(sub, 'deal');
  const lenderIds = ids(sub, 'lnd');
  const docIds = ids(sub, 'doc');
  const [eventId] = ids(ev, 'evt');
  expect([bizId, originator, closer, dealId, eventId, lenderIds.length, docIds.length]).toEqual([expect.any(String), expect.any(String), expect.any(String), expect.any(String), expect.any(String), 2, 2]);

  await renameId('users', t.users.manager.id, originator);
  await renameId('users', t.users.user.id, closer);
  const biz = await api('post', '/v1/businesses', { legal_name: 'Fixture Bakery LLC' });
  await renameId('businesses', biz.id, bizId);
  const deal = await api('post', '/v1/deals', { business_id: bizId, requested_amount: 75000 });
  await renameId('deals', deal.id, dealId);
  for (const id of lenderIds) {
    const lender = await api('post', '/v1/lenders', { name: `Fixture Lender ${id.slice(-4)}`, submission_email: `submissions+${id.slice(-4).toLowerCase()}@lender.example` });
    await renameId('lenders', lender.id, id);
  }
  const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(2000, 0x20), Buffer.from('\n%%EOF\n')]);
  for (const id of docIds) {
    const slot = await api('post', `/v1/deals/${dealId}/documents`, { filename: 'application.pdf', content_type: 'application/pdf', size_bytes: pdf.length, category: 'application' });
    const u = new URL(slot.upload_url);
    expect((await h.api.put(u.pathname + u.search).set(slot.upload_headers).send(pdf)).status).toBe(200);
    await api('post', `/v1/documents/${slot.document.id}/finalize`, {});
    await renameId('documents', slot.document.id, id);
  }
  const event = await h.knex('events').where({ location_id: t.locationId }).orderBy('created_at', 'desc').first();
  await renameId('events', event.id, eventId);
  // Submissions go out through the location's mailbox (queued here: no worker runs in this file).
  await setMailbox(h.knex, h.deps.secrets, h.clock, { locationId: t.locationId, smtpUrl: 'smtp://127.0.0.1:9', from: 'Fixture Deals <deals@fixture.example>' });
}

/** Runs one sample as pasted; the production address becomes this server's, as on its /docs. */
async function runSample(lang: string, source: string, key: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const text = source.split(PRODUCTION).join(base);
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: work, SVC_API_KEY: key };
  const [cmd, args] =
    lang === 'Shell' ? ['sh', ['-c', text]]
    : lang === 'TypeScript' ? (writeFileSync(join(project, 'sample.ts'), text), [join(ROOT, 'node_modules', '.bin', 'tsx'), ['sample.ts']])
    : (writeFileSync(join(project, 'sample.py'), text), ['python3', ['sample.py']]);
  // Asynchronously: the server answering the sample runs in this process.
  try {
    const r = await exec(cmd as string, args as string[], { cwd: project, env, encoding: 'utf8', timeout: 60_000 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? String(err) };
  }
}

describe.skipIf(ENGINE !== 'pglite')('the reference samples, run verbatim against a live server (pglite)', () => {
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'samples-live-'));
    project = join(work, 'partner-app');
    mkdirSync(project);
    // A default project, as `npm init -y` makes it (CommonJS: no "type": "module", no tsconfig).
    execFileSync('npm', ['init', '-y'], { cwd: project, stdio: 'pipe', env: { ...process.env, HOME: work } });
    // The client package as `npm run pack:client` builds it, built straight into the project's
    // node_modules (a folder of this file's own); its one dependency from here.
    mkdirSync(join(project, 'node_modules'));
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-client.mjs'), '--out', join(project, 'node_modules', 'deal-funding-api')], { cwd: ROOT, stdio: 'pipe' });
    symlinkSync(join(ROOT, 'node_modules', 'openapi-fetch'), join(project, 'node_modules', 'openapi-fetch'));
    const pkg = JSON.parse(readFileSync(join(project, 'node_modules', 'deal-funding-api', 'package.json'), 'utf8'));
    clientCjs = Boolean(pkg.exports?.['./client']?.require ?? pkg.exports?.['./client']?.default);
    served = await startServedHarness();
    ({ h, base } = served);
    t = await h.tenant('Sample Runners');
    await fixtures();
  }, 180_000);
  afterAll(async () => {
    await served?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('the set covers five operations in three languages, each sample naming the production address (the one replaced)', () => {
    const picked = samples.filter((s) => SET.includes(s.operationId));
    expect(picked.map((s) => s.operationId).sort()).toEqual([...SET].sort());
    for (const op of picked) expect(op.samples.map((s) => s.lang)).toEqual(['Shell', 'TypeScript', 'Python']);
    for (const op of picked) for (const s of op.samples) expect(s.source).toContain(PRODUCTION);
  });

  for (const operationId of SET) {
    for (const lang of ['Shell', 'TypeScript', 'Python']) {
      // The TypeScript sample's `import` compiles to require() in a default project: it needs the
      // package's CommonJS build (issue 30, the client); without one it is reported, not run.
      it(`${operationId} in ${lang} succeeds as pasted`, { timeout: 90_000 }, async (ctx) => {
        if (lang === 'TypeScript' && !clientCjs) {
          console.log(`${operationId} TypeScript sample not run: the client package has no CommonJS export yet`);
          ctx.skip();
        }
        const source = samples.find((s) => s.operationId === operationId)!.samples.find((s) => s.lang === lang)!.source;
        // A business's EIN is unique in its location (a second paste is 409 duplicate_business, as it
        // should be): each language creates it in a location of its own. The rest share the fixtures.
        const key = operationId === 'createBusiness' ? (await h.tenant(`Sample Runners ${lang}`)).keys.admin : t.keys.admin;
        const r = await runSample(lang, source, key);
        expect(r.stderr, `${operationId} ${lang}\n${r.stdout}`).toBe('');
        expect(r.code).toBe(0);
        // curl -sS prints the answer and exits 0 on any status: the answer must be a success, not an error envelope.
        // (TypeScript and Python print the object as their console shows it: `data:` or `'data':`.)
        expect(r.stdout).not.toMatch(/\berror\b['"]?\s*:/);
        expect(r.stdout).toMatch(/^\{\s*['"]?data\b/);
        if (lang === 'Shell') {
          const body = JSON.parse(r.stdout);
          expect(body.data, r.stdout).toBeDefined();
          // The first paste of the submission sample (curl runs first) sends the deal to both example lenders.
          if (operationId === 'createDealSubmissions') expect(body.data, r.stdout).toHaveLength(2);
        }
      });
    }
  }

  it('the curl POSTs sent an Idempotency-Key made by od (32 hex digits), not an empty header', async () => {
    const rows: { key: string }[] = await h.knex('idempotency_keys').select('key');
    const hex = rows.map((r) => r.key).filter((k) => /^[0-9a-f]{32}$/.test(k));
    // createBusiness, createDeal and createDealSubmissions by curl: three keys from od.
    expect(hex.length).toBeGreaterThanOrEqual(3);
  });
});
