// A complete webhook receiver. Run: SVC_WEBHOOK_SECRET=whsec_... npx tsx webhook-receiver.ts
import express from 'express';
import { pathToFileURL } from 'node:url';
import { verifyWebhookSignature } from '../../src/webhooks-verify'; // yours: 'deal-funding-api/webhooks'

export interface SvcEvent { id: string; type: string; created_at: string; location_id: string; data: Record<string, unknown> }

export function createReceiver(secret: string | string[], handle: (event: SvcEvent) => Promise<void>) {
  const app = express();
  const seen = new Set<string>(); // production: a unique key on the event id in your database
  // express.raw keeps the exact bytes that were signed; verify them before parsing anything.
  app.post('/hooks', express.raw({ type: 'application/json', limit: '1mb' }), (req, res) => {
    if (!verifyWebhookSignature(req.body, req.get('X-SVC-Signature'), secret)) {
      res.status(400).send('invalid signature');
      return;
    }
    const event = JSON.parse(req.body.toString('utf8')) as SvcEvent;
    res.status(204).end(); // answer within the 10 s timeout, duplicates included
    if (seen.has(event.id)) return; // delivery is at-least-once: a retry repeats the event id
    seen.add(event.id);
    setImmediate(() => handle(event).catch((err) => console.error(`event ${event.id} failed:`, err)));
  });
  return app;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const secret = process.env.SVC_WEBHOOK_SECRET;
  if (!secret) throw new Error('Set SVC_WEBHOOK_SECRET to your subscription secret (whsec_...)');
  const port = Number(process.env.PORT ?? 8080);
  const app = createReceiver(secret.split(','), async (event) => {
    console.log(`${event.created_at} ${event.type} ${event.id}`); // your work here
  });
  app.listen(port, () => console.log(`Receiving webhooks on http://localhost:${port}/hooks`));
}
