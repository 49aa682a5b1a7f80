import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBase62, sha256Hex } from '../../src/lib/crypto';
import { createApiKey, listApiKeys } from '../../src/features/accounts/accounts.service';
import { TEST_KEY_PREFIX_SINCE } from '../../src/http/auth';
import { ENGINE, startHarness, type Harness, type Tenant } from '../support/harness';

// Issue 30: a test location's keys say so (`svc_test_`), a production location's stay `svc_live_`,
// and a key whose prefix does not match its location's mode never acts (401 api_key_mode_mismatch).
// Keys of test locations issued as `svc_live_` before TEST_KEY_PREFIX_SINCE keep working.

let h: Harness;
let test: Tenant;
let prod: Tenant;

beforeAll(async () => {
  h = await startHarness();
  test = await h.tenant('Sandbox Brokers');
  prod = await h.tenant('Live Brokers', { isTest: false });
});
afterAll(() => h?.close());

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

/** A key row written as an older (or a tampered) service would have: any prefix, any creation time. */
async function plantKey(locationId: string, prefix: 'svc_live_' | 'svc_test_', createdAt: Date): Promise<string> {
  const key = `${prefix}${randomBase62(32)}`;
  await h.knex('api_keys').insert({
    id: `key_${randomBase62(26).toUpperCase()}`, location_id: locationId, name: 'planted', role: 'admin', scopes: JSON.stringify([]),
    key_hash: sha256Hex(key), prefix, last4: key.slice(-4), user_id: null, expires_at: null, created_at: createdAt,
  });
  return key;
}

describe(`API keys say which kind of location they act on (${ENGINE})`, () => {
  it('a test location issues svc_test_ keys, a production location svc_live_ keys; both work on their own location', async () => {
    expect(test.keys.admin).toMatch(/^svc_test_[0-9A-Za-z]{32}$/);
    expect(prod.keys.admin).toMatch(/^svc_live_[0-9A-Za-z]{32}$/);
    const made = await createApiKey(h.knex, h.clock, { locationId: test.locationId, name: 'ci' });
    expect(made).toMatchObject({ mode: 'TEST', prefix: 'svc_test_' });
    expect((await createApiKey(h.knex, h.clock, { locationId: prod.locationId, name: 'crm' })).mode).toBe('LIVE');
    expect((await h.api.get('/v1/businesses').set(bearer(made.key))).status).toBe(200);
    expect((await h.api.get('/v1/businesses').set(bearer(prod.keys.admin))).status).toBe(200);
    const listed = await listApiKeys(h.knex, test.locationId);
    expect(listed.find((k) => k.id === made.id)).toMatchObject({ mode: 'TEST', display: `svc_test_…${made.key.slice(-4)}`, legacy_prefix: false });
  });

  it('a svc_test_ key of a production location is refused: 401 api_key_mode_mismatch', async () => {
    const key = await plantKey(prod.locationId, 'svc_test_', h.clock.now());
    const res = await h.api.get('/v1/businesses').set(bearer(key));
    expect(res.status).toBe(401);
    expect(res.body.error).toMatchObject({ type: 'authentication_error', code: 'api_key_mode_mismatch', message: 'This svc_test_ key cannot act on a production location' });
    expect(res.headers['www-authenticate']).toContain('error="invalid_token"');
  });

  it('a location switched to production after its keys were issued: its svc_test_ keys stop at once', async () => {
    const switched = await h.tenant('Going Live');
    expect((await h.api.get('/v1/businesses').set(bearer(switched.keys.admin))).status).toBe(200);
    await h.knex('locations').where({ id: switched.locationId }).update({ is_test: false });
    const res = await h.api.get('/v1/businesses').set(bearer(switched.keys.admin));
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('api_key_mode_mismatch');
  });

  it('a svc_live_ key of a test location created since svc_test_ keys exist is refused: 401 api_key_mode_mismatch', async () => {
    const key = await plantKey(test.locationId, 'svc_live_', TEST_KEY_PREFIX_SINCE);
    const res = await h.api.get('/v1/businesses').set(bearer(key));
    expect(res.status).toBe(401);
    expect(res.body.error).toMatchObject({ code: 'api_key_mode_mismatch', message: 'This svc_live_ key cannot act on a test location' });
  });

  it('a svc_live_ key a test location was issued before svc_test_ keys keeps working, listed as TEST with legacy_prefix', async () => {
    const key = await plantKey(test.locationId, 'svc_live_', new Date(TEST_KEY_PREFIX_SINCE.getTime() - 1));
    expect((await h.api.get('/v1/businesses').set(bearer(key))).status).toBe(200);
    const listed = await listApiKeys(h.knex, test.locationId);
    expect(listed.find((k) => k.last4 === key.slice(-4) && k.prefix === 'svc_live_')).toMatchObject({ mode: 'TEST', legacy_prefix: true });
  });

  it('outside /v1 a svc_test_ key is refused as an API key (api_key_not_allowed), like a svc_live_ key', async () => {
    const res = await h.api.get('/app/api/nothing').set(bearer(test.keys.admin));
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('api_key_not_allowed');
  });
});
