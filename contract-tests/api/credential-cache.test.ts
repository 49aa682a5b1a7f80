import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Client } from 'pg';
import { sha256Hex } from '../../src/lib/crypto';
import { revokeApiKey } from '../../src/features/accounts/accounts.service';
import { CREDENTIAL_PROOF_EVERY_MS, type CredentialWatch } from '../../src/db/engine';
import { serveEmbeddedSocket, socketConnection } from '../../src/db/embedded-socket';
import { ENGINE, startHarness, type Harness, type Tenant } from '../support/harness';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Issue 31: authentication answers from a per-process credential cache, trusted only while the
// credential listener is proven live, and dropped on every change to what authentication reads
// (migration 0025's triggers -> NOTIFY svc_credentials). A revoked, rotated or deleted key, or a
// deactivated user, is refused by the next request once the change's notification arrived; with the
// listener down every request asks the database.

let h: Harness;
let t: Tenant;
let watch: CredentialWatch;

beforeAll(async () => {
  h = await startHarness();
  t = await h.tenant('Cache Brokers');
  watch = h.deps.db.credentialWatch!;
  await vi.waitFor(() => expect(watch.live).toBe(true));
});
afterAll(() => h?.close());

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
const get = (key: string) => h.api.get('/v1/pipeline/stages').set(bearer(key));

/** Runs `change` and waits until its notification reached this process (the generation moved). */
async function changed(change: () => Promise<unknown>): Promise<void> {
  const before = watch.generation;
  await change();
  await vi.waitFor(() => expect(watch.generation).toBeGreaterThan(before));
}

describe(`credential cache (${ENGINE})`, () => {
  it('a revoked key is refused by the next request, though it was just served from the cache', async () => {
    const k = await t.key({ name: 'revoke me' });
    for (let i = 0; i < 3; i++) expect((await get(k.key)).status).toBe(200);
    await changed(() => h.knex('api_keys').where({ id: k.id }).update({ revoked_at: h.clock.now() }));
    const res = await get(k.key);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('api_key_revoked');
  });

  it('a rotated key (new hash) stops at once; a deleted key stops; a deactivated user stops its keys and reactivation restores them', async () => {
    const rotated = await t.key({ name: 'rotate me' });
    expect((await get(rotated.key)).status).toBe(200);
    await changed(() => h.knex('api_keys').where({ id: rotated.id }).update({ key_hash: sha256Hex(`${rotated.key}-rotated`) }));
    expect((await get(rotated.key)).body.error.code).toBe('invalid_api_key');

    const deleted = await t.key({ name: 'delete me', user: null });
    expect((await get(deleted.key)).status).toBe(200);
    await changed(() => h.knex('api_keys').where({ id: deleted.id }).delete());
    expect((await get(deleted.key)).body.error.code).toBe('invalid_api_key');

    const owned = await t.key({ name: 'owned', role: 'user' });
    expect((await get(owned.key)).status).toBe(200);
    await changed(() => h.knex('users').where({ id: t.users.user.id }).update({ active: false }));
    expect((await get(owned.key)).body.error.code).toBe('api_key_owner_deactivated');
    await changed(() => h.knex('users').where({ id: t.users.user.id }).update({ active: true }));
    expect((await get(owned.key)).status).toBe(200);
  });

  it('a changed role or scope list is what the next request acts with', async () => {
    const k = await t.key({ name: 'role', role: 'admin' });
    const admin = await h.api.get('/v1/webhooks').set(bearer(k.key));
    expect(admin.status).toBe(200);
    await changed(() => h.knex('api_keys').where({ id: k.id }).update({ role: 'user', scopes: JSON.stringify(['businesses:read']) }));
    const after = await h.api.get('/v1/webhooks').set(bearer(k.key));
    expect(after.status).toBe(403);
  });

  it('a change made by this process is seen by its very next request, without waiting for the notification', async () => {
    const plain = await t.key({ name: 'own write' });
    const inTx = await t.key({ name: 'own write in a transaction' });
    for (const k of [plain, inTx]) expect((await get(k.key)).status).toBe(200);
    await revokeApiKey(h.knex, h.clock, plain.id);
    expect((await get(plain.key)).body.error.code).toBe('api_key_revoked');
    await h.knex.transaction(async (trx) => {
      await trx('api_keys').where({ id: inTx.id }).update({ revoked_at: h.clock.now() });
      // From the write on, until its commit's notification is back, the cache is not used.
      expect(watch.live).toBe(false);
    });
    expect((await get(inTx.key)).body.error.code).toBe('api_key_revoked');
    // Its own commit's notification coming back lets the cache be used again.
    await vi.waitFor(() => expect(watch.live).toBe(true));
  });

  it('a key\'s last_used_at (written once a minute) drops nothing', async () => {
    const k = await t.key({ name: 'used' });
    const before = watch.generation;
    expect((await get(k.key)).status).toBe(200);
    expect((await h.knex('api_keys').where({ id: k.id }).first('last_used_at')).last_used_at).not.toBeNull();
    expect(watch.generation).toBe(before);
  });

  it('the listener proves itself with a nonce every 30 s of the injected clock', async () => {
    const proofs = watch.proofs;
    h.clock.advance(CREDENTIAL_PROOF_EVERY_MS);
    await vi.waitFor(() => expect(watch.proofs).toBe(proofs + 1));
    expect(watch.live).toBe(true);
  });
});

describe.skipIf(ENGINE !== 'pg')('credential cache: the listener down (pg)', () => {
  it('while the listener is lost every request asks the database (a revocation nobody is told of is still refused); the next period reconnects and proves', async () => {
    const k = await t.key({ name: 'listener down' });
    expect((await get(k.key)).status).toBe(200);
    const killed = await h.knex.raw(`SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity
      WHERE datname = current_database() AND query = 'LISTEN svc_credentials' AND pid <> pg_backend_pid()`);
    expect(killed.rows.length).toBe(1);
    await vi.waitFor(() => expect(watch.live).toBe(false));
    expect((await get(k.key)).status).toBe(200);
    // Nobody listens now: this revocation's notification is lost.
    await h.knex('api_keys').where({ id: k.id }).update({ revoked_at: h.clock.now() });
    expect((await get(k.key)).body.error.code).toBe('api_key_revoked');
    h.clock.advance(CREDENTIAL_PROOF_EVERY_MS);
    await vi.waitFor(() => expect(watch.live).toBe(true));
  });
});

describe.skipIf(ENGINE !== 'pglite')('credential cache: operator sessions on the embedded engine (pglite)', () => {
  it('while an operator session holds the database the cache is not used; what it committed is seen by the next request', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-cc-'));
    const sock = await serveEmbeddedSocket(h.deps.db, dir);
    const client = new Client(socketConnection(sock.path));
    try {
      await client.connect();
      const k = await t.key({ name: 'operator revokes' });
      expect((await get(k.key)).status).toBe(200);
      await client.query('BEGIN');
      expect(watch.live).toBe(false);
      await client.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [k.id]);
      await client.query('COMMIT');
      expect(watch.live).toBe(true);
      expect((await get(k.key)).body.error.code).toBe('api_key_revoked');
    } finally {
      await client.end().catch(() => {});
      await sock.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
