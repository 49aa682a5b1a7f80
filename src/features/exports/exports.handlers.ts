import type { Knex } from 'knex';
import type { Deps } from '../../deps';
import type { Handler, HandlerContext, OperationId } from '../../http/types';
import * as businesses from '../businesses/businesses.handlers';
import * as deals from '../deals/deals.handlers';
import * as documents from '../documents/documents.handlers';
import * as lenders from '../lenders/lenders.handlers';
import * as notes from '../notes/notes.handlers';
import * as offers from '../offers/offers.handlers';
import * as people from '../people/people.handlers';
import * as pipeline from '../pipeline/pipeline.handlers';
import * as portal from '../portal/portal.handlers';
import * as submissions from '../submissions/submissions.handlers';
import * as tasks from '../tasks/tasks.handlers';
import * as advances from '../advances/advances.handlers';
import * as webhooks from '../webhooks/webhooks.handlers';
import { businessesWithNotes, dealsWithChildren, peopleWithAssociations } from './exports.repository';

type Rec = Record<string, unknown>;
/** Fields never exported: bearer links (a presigned download URL, a merchant's magic link). */
const OMIT: Record<string, string[]> = { document: ['download_url'], document_request: ['portal_url'] };

/**
 * `GET /v1/exports/location`: every record of the location, as NDJSON, read through the same list
 * handlers (services, mappers, keyset pages of 100) as the API answers them to an admin, so a line's
 * `data` is exactly what the read operations return. On PostgreSQL one read-only repeatable-read
 * transaction holds the whole export (one snapshot); the embedded engine has one connection, which
 * a transaction held while a client reads would take from every other request, so it reads page by page.
 */
export const getLocationExport: Handler<'getLocationExport'> = async (ctx) => ({
  status: 200,
  contentType: 'application/x-ndjson; charset=utf-8',
  filename: `location-export-${ctx.deps.clock.now().toISOString().slice(0, 10)}.ndjson`,
  stream: exportLines(ctx),
});

async function* exportLines(ctx: HandlerContext<'getLocationExport'>): AsyncGenerator<string> {
  const snapshot = ctx.deps.db.engine === 'pg';
  const started = ctx.deps.clock.now();
  const counts: Record<string, number> = {};
  const line = (object: string, data: Rec, parent?: Rec) => {
    counts[object] = (counts[object] ?? 0) + 1;
    for (const k of OMIT[object] ?? []) delete data[k];
    return JSON.stringify(parent ? { object, parent, data } : { object, data }) + '\n';
  };
  let trx: Knex.Transaction | undefined;
  try {
    trx = snapshot ? await ctx.deps.db.knex.transaction({ isolationLevel: 'repeatable read', readOnly: true }) : undefined;
    const deps: Deps = trx ? { ...ctx.deps, db: { ...ctx.deps.db, knex: trx as unknown as Knex } } : ctx.deps;
    const call = <K extends OperationId>(handler: Handler<K>, params: Rec, query: Rec) =>
      handler({ ...ctx, params, query, body: undefined, deps } as unknown as HandlerContext<K>) as Promise<{ body: { data: Rec | Rec[]; meta?: { next_cursor?: string | null } } }>;
    /** Every record of a list, page by page (100 at a time). */
    async function* all<K extends OperationId>(handler: Handler<K>, params: Rec = {}): AsyncGenerator<Rec[]> {
      let cursor: string | null | undefined;
      do {
        const r = await call(handler, params, { limit: 100, ...(cursor ? { cursor } : {}) });
        yield r.body.data as Rec[];
        cursor = r.body.meta?.next_cursor;
      } while (cursor);
    }
    const emit = async function* <K extends OperationId>(object: string, handler: Handler<K>, params: Rec = {}, parent?: Rec): AsyncGenerator<string> {
      for await (const page of all(handler, params)) if (page.length) yield page.map((r) => line(object, r, parent)).join('');
    };

    yield line('export', { format: 'location_export', version: 1, location_id: ctx.scope.locationId, started_at: started.toISOString(), snapshot });
    yield* emit('pipeline_stage', pipeline.listPipelineStages);
    for await (const page of all(lenders.listLenders)) {
      yield page.map((r) => line('lender', r)).join('');
      for (const l of page) {
        const c = await call(lenders.getLenderCriteria, { id: l.id }, {});
        yield line('lender_criteria', c.body.data as Rec, { lender_id: l.id as string });
      }
    }
    for await (const page of all(businesses.listBusinesses)) {
      yield page.map((r) => line('business', r)).join('');
      const noted = await businessesWithNotes(deps.db.knex, ctx.scope, page.map((b) => b.id as string));
      for (const b of page.filter((x) => noted.has(x.id as string))) yield* emit('note', notes.listBusinessNotes, { id: b.id });
    }
    for await (const page of all(people.listPeople)) {
      yield page.map((r) => line('person', r)).join('');
      const linked = await peopleWithAssociations(deps.db.knex, ctx.scope, page.map((p) => p.id as string));
      for (const p of page.filter((x) => linked.has(x.id as string))) yield* emit('person_association', people.listPersonAssociations, { id: p.id }, { person_id: p.id as string });
    }
    for await (const page of all(deals.listDeals)) {
      yield page.map((r) => line('deal', r)).join('');
      // A deal's own lists, asked only of the deals of this page that have something in them.
      const withChildren = await dealsWithChildren(deps.db.knex, ctx.scope, page.map((d) => d.id as string));
      for (const d of page.filter((x) => withChildren.has(x.id as string))) {
        yield* emit('note', notes.listDealNotes, { id: d.id });
        yield* emit('task', tasks.listDealTasks, { id: d.id });
        yield* emit('document', documents.listDealDocuments, { id: d.id });
        yield* emit('document_request', portal.listDocumentRequests, { id: d.id });
      }
    }
    // Submissions and offers of every deal, through the location-wide lists (after all deals).
    yield* emit('submission', submissions.listSubmissions);
    yield* emit('offer', offers.listOffers);
    yield* emit('advance', advances.listAdvances);
    yield* emit('webhook', webhooks.listWebhooks);
    yield line('export_end', { lines: { ...counts, export_end: 1 }, finished_at: ctx.deps.clock.now().toISOString() });
  } finally {
    // Read only: nothing to keep.
    await trx?.rollback().catch(() => undefined);
  }
}
