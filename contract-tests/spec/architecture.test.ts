/**
 * docs-site/ARCHITECTURE.md stays true about the request pipeline: its numbered "Request pipeline"
 * list names app.ts's PIPELINE stages in the same order, and createApp mounts its handlers in that
 * order (read back from the app's own router: every handler it mounts carries its stage). The app is
 * built and never served: no request is made, so its database is never reached.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp, PIPELINE, stageOf } from '../../src/app';
import { loadConfig } from '../../src/config';
import type { Deps } from '../../src/deps';
import { handlers } from '../../src/features/handlers';
import { systemClock } from '../../src/lib/clock';
import { SecretBox } from '../../src/lib/crypto';
import { createStorage } from '../../src/storage';
import { ROOT } from './helpers';

/** The stage ids of the document's pipeline list: lines "N. `stage-id` ..." under "## Request pipeline". */
export function documentedPipeline(markdown: string): string[] {
  const section = markdown.split(/^## /m).find((s) => s.startsWith('Request pipeline'));
  if (!section) throw new Error('ARCHITECTURE.md has no "## Request pipeline" section');
  const items = [...section.matchAll(/^(\d+)\. `([a-z-]+)`/gm)];
  items.forEach((m, i) => expect(Number(m[1]), `item ${m[2]} is numbered in sequence`).toBe(i + 1));
  return items.map((m) => m[2]);
}

type Layer = { handle: object & { inner?: object[] }; route?: { path: string; stack: Layer[] }; name?: string };


/** The stage of every handler the app's router runs, in order: [one entry per top-level layer, each a list]. */
function mountedStages(app: ReturnType<typeof createApp>): { where: string; stages: (string | undefined)[] }[] {
  const stack = (app as unknown as { router: { stack: Layer[] } }).router.stack;
  return stack.map((layer) => (layer.route
    ? { where: `${layer.route.path}`, stages: layer.route.stack.map((l) => stageOf(l.handle)) }
    // the /v1 route table: one layer running, per operation, the validator and the operation's handlers
    : layer.handle.inner ? { where: 'the /v1 route table', stages: [stageOf(layer.handle), ...layer.handle.inner.map((h) => stageOf(h))] }
    : { where: layer.name ?? '(middleware)', stages: [stageOf(layer.handle)] }));
}

const dir = mkdtempSync(join(tmpdir(), 'architecture-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function buildApp() {
  // Every optional part mounted: local storage (its routes), a loopback address (OAuth and /mcp).
  const config = loadConfig({ DATA_DIR: dir, PUBLIC_BASE_URL: 'http://127.0.0.1:3000' } as NodeJS.ProcessEnv);
  const storage = createStorage({ dataDir: dir, publicBaseUrl: 'http://127.0.0.1:3000', signingKey: 'k'.repeat(32) });
  const deps = {
    db: { engine: 'pg', knex: undefined, close: async () => {} }, clock: systemClock, logger: pino({ level: 'silent' }), config,
    secrets: new SecretBox('s'.repeat(32)), storage, publicBaseUrl: 'http://127.0.0.1:3000', portalKey: 'p', cursorKey: 'c',
  } as unknown as Deps;
  return createApp(deps, handlers);
}

describe('docs-site/ARCHITECTURE.md: the request pipeline', () => {
  it('lists app.ts PIPELINE, in order, one numbered item per stage', () => {
    expect(documentedPipeline(readFileSync(join(ROOT, 'docs-site', 'ARCHITECTURE.md'), 'utf8'))).toEqual([...PIPELINE]);
  });

  it('is the order createApp mounts its handlers in: every handler has a stage and no stage comes back after a later one', () => {
    const layers = mountedStages(buildApp());
    const unmarked = layers.filter((l) => l.stages.some((s) => s === undefined)).map((l) => l.where);
    expect(unmarked, 'handlers mounted without a stage (at(...) in app.ts)').toEqual([]);
    const rank = (s: string | undefined) => PIPELINE.indexOf(s as never);
    // Within one route (an operation: its guards, access, idempotency, handler) and between layers.
    let last = -1;
    const seen: string[] = [];
    for (const l of layers) {
      const ranks = l.stages.map(rank);
      expect(ranks, `the handlers of ${l.where} in pipeline order`).toEqual([...ranks].sort((a, b) => a - b));
      // An operation's route (guards, access, idempotency, handler) is mounted once per operation:
      // each starts again at validation. Anything else never comes before what was mounted earlier.
      if (l.stages.includes('handler')) expect(ranks[0], `${l.where} starts at validation`).toBe(rank('validation'));
      else expect(ranks[0], `${l.where} (${l.stages.join(', ')}) mounted after ${PIPELINE[last] ?? 'nothing'}`).toBeGreaterThanOrEqual(last);
      last = Math.max(last, ...ranks);
      for (const s of l.stages) if (!seen.includes(s!)) seen.push(s!);
    }
    expect(seen, 'every stage mounted, first seen in PIPELINE order').toEqual([...PIPELINE]);
  });
});
