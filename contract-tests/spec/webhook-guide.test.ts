import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/http/spec';

// The reference's receiver is the example file that contract-tests/api/listen.test.ts runs: the
// guide must show exactly that code (with the package import a partner writes), never a copy that drifts.
describe('the "Verifying signatures" guide', () => {
  it('shows docs-site/examples/webhook-receiver.ts verbatim, importing deal-funding-api/webhooks', () => {
    const example = readFileSync(new URL('../../docs-site/examples/webhook-receiver.ts', import.meta.url), 'utf8')
      .replace("import { verifyWebhookSignature } from '../../src/webhooks-verify'; // yours: 'deal-funding-api/webhooks'", "import { verifyWebhookSignature } from 'deal-funding-api/webhooks';")
      .trimEnd();
    const guide = (loadSpec().info as { description: string }).description;
    const block = /## Verifying signatures[\s\S]*?```ts\n([\s\S]*?)\n```/.exec(guide)?.[1];
    expect(block).toBe(example);
  });
});
