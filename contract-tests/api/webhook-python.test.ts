import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SPEC_PATH } from '../../src/http/spec';
import { ENGINE, startHarness, type Harness, type Tenant } from '../support/harness';
import { startReceiver, type LoopbackReceiver, type Received } from '../support/receiver';

// The guide's Python verifier ("Verifying signatures in Python" in openapi.yaml), extracted from the
// contract as published and run with `python3` against a delivery this server really signed and
// sent to a loopback receiver (a test location may deliver to 127.0.0.1).

let h: Harness;
let t: Tenant;
let receiver: LoopbackReceiver;
let dir: string;
const received: Received[] = [];

/** The ```python block under the "Verifying signatures in Python" heading of info.description. */
function pythonSnippet(): string {
  const description: string = parse(readFileSync(SPEC_PATH, 'utf8')).info.description;
  const at = description.indexOf('## Verifying signatures in Python');
  expect(at).toBeGreaterThan(0);
  const m = /```python\n([\s\S]*?)```/.exec(description.slice(at));
  return m![1];
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-python-'));
  h = await startHarness();
  t = await h.tenant('Python Receivers');
  receiver = await startReceiver((got, _req, res) => {
    received.push(got);
    res.statusCode = 204;
    res.end();
  });
});
afterAll(async () => {
  await receiver?.close();
  await h?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe(`webhook verification in Python (${ENGINE})`, () => {
  it("the guide's python3 code accepts a real signed delivery and refuses a changed body, a wrong secret and a stale timestamp", async () => {
    const created = await h.api.post('/v1/webhooks').set(t.auth()).send({ url: `${receiver.base}/hooks`, events: [] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const secret: string = created.body.data.secret;
    const sent = await h.api.post(`/v1/webhooks/${created.body.data.id}/test`).set(t.auth());
    expect(sent.status).toBe(200);
    expect(received).toHaveLength(1);
    const { body, headers } = received[0];
    const header = headers['x-svc-signature'] as string;
    const ts = Number(/t=(\d+)/.exec(header)![1]);

    writeFileSync(join(dir, 'verify_webhook.py'), pythonSnippet());
    // Calls the guide's function on each case; the delivery's bytes travel as base64 so they arrive untouched.
    writeFileSync(
      join(dir, 'run.py'),
      [
        'import base64, json, sys',
        'from verify_webhook import verify_webhook_signature',
        'cases = json.load(sys.stdin)',
        'print(json.dumps([verify_webhook_signature(base64.b64decode(c["body"]), c["header"], c["secrets"], now=c["now"]) for c in cases]))',
      ].join('\n'),
    );
    const b64 = (b: Buffer) => b.toString('base64');
    const changed = Buffer.from(body.toString('utf8').replace('Python Receivers', 'Python Receivers!'));
    const cases = [
      { body: b64(body), header, secrets: secret, now: ts }, // as delivered
      { body: b64(body), header, secrets: ['whsec_old0000000000000000000000000000', secret], now: ts + 299 }, // rotation: any secret matches; within 5 minutes
      { body: b64(changed), header, secrets: secret, now: ts }, // a changed body
      { body: b64(body), header, secrets: 'whsec_wrong000000000000000000000000000', now: ts }, // another secret
      { body: b64(body), header, secrets: secret, now: ts + 301 }, // replayed after 5 minutes
      { body: b64(body), header, secrets: secret, now: ts - 301 }, // from the future
      { body: b64(body), header: header.replace(/v1=[0-9a-f]{64}/, 'v1=' + '0'.repeat(64)), secrets: secret, now: ts }, // forged signature
      { body: b64(body), header: '', secrets: secret, now: ts }, // no header
    ];
    const run = spawnSync('python3', [join(dir, 'run.py')], { cwd: dir, input: JSON.stringify(cases), encoding: 'utf8', timeout: 30_000 });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([true, true, false, false, false, false, false, false]);
  }, 60_000);
});
