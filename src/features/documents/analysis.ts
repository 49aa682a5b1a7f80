import type { Knex } from 'knex';
import type { components } from '../../../generated/schema';
import type { Deps } from '../../deps';
import { recordActivity } from '../../events/activity';
import { recordEvent } from '../../events/outbox';
import { systemScope, type Scope } from '../../http/types';
import { newId } from '../../lib/ids';
import { enqueueJob } from '../../jobs/queue';
import { registerJobHandler } from '../../jobs/registry';
import { StorageError } from '../../storage';
import { getVisibleDealOr404 } from '../notes/notes.service';
import { analyzeStatement, SCAN_TYPES, summarize, type StatementFigures } from '../statements/analyze';
import { contractFailureCode, failureOf, statementSnapshot, toStatement, type StoredStatement } from './documents.mapper';
import { MAX_DOCUMENT_BYTES } from './limits';
import {
  completeBatchRow, dealStatements, documentsByIds, insertBatch, latestBatches, lockDeal, supersedeRunningBatches, updateDocumentRow,
  type DocumentRow,
} from './documents.repository';

// Statement analysis. Finalizing a bank statement starts a batch of every bank statement of the
// deal and queues a `statement.analyze` job for each document not analysed yet. A job reads the
// bytes from storage, extracts and reads the statement in a child process with time and memory
// limits (../statements), and records the figures or the failure with `document.processed`. At most
// MAX_CONCURRENT_ANALYSES readings run at once in a process (the queue's own concurrency in the
// worker, and a semaphore here), whatever the worker's overall concurrency. A job whose every
// attempt was started and never came back (the process died) ends the document `failed` with
// `resource_limit` instead of being claimed again. The
// job that finishes the last document of the deal's latest batch completes it: the summary over
// its parsed statements and `statement.analyzed`. Batch creation and completion of one deal take
// the deal's row lock, so two documents finishing at once cannot both (or neither) complete it.

export const ANALYZE_QUEUE = 'statement.analyze';
const finished = (s: DocumentRow['status']) => s === 'processed' || s === 'failed';

/**
 * In the finalize transaction of bank statement `documentId`: a new batch over all of the deal's
 * statements, and the analysis of that document queued (the others are analysed or queued already).
 */
export async function startStatementBatch(trx: Knex.Transaction, deps: Deps, scope: Scope, dealId: string, documentId: string): Promise<void> {
  await lockDeal(trx, scope, dealId);
  const docs = await dealStatements(trx, scope, dealId);
  await supersedeRunningBatches(trx, scope, dealId);
  const now = deps.clock.now();
  await insertBatch(trx, {
    id: newId('stb', now.getTime()), location_id: scope.locationId, deal_id: dealId, document_ids: docs.map((d) => d.id),
    status: 'processing', statements_parsed: null, summary: null, completed_at: null, created_at: now,
  });
  await enqueueJob(trx, deps.clock, { queue: ANALYZE_QUEUE, payload: { document_id: documentId, location_id: scope.locationId }, maxAttempts: 3 });
}

/** Statement readings at once per process: each may hold a reader process of up to 512 MB. */
export const MAX_CONCURRENT_ANALYSES = 2;

let running = 0;
const waiting: Array<() => void> = [];
/** Readings in flight now, and the most seen at once (tests, benchmarks). */
export const analysisLoad = { get running() { return running; }, peak: 0 };

async function withReadingSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT_ANALYSES) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  analysisLoad.peak = Math.max(analysisLoad.peak, running);
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

type Outcome = { ok: true; figures: StoredStatement; pages: number } | { ok: false; code: string; reason: string; pages: number | null };

/** Reads and analyses one statement's bytes. Never throws for what is in the file. */
async function analyze(deps: Deps, row: DocumentRow, lastAttempt: boolean): Promise<Outcome> {
  // PDFs, and scans or photos as PNG or JPEG (read by OCR).
  if (row.content_type !== 'application/pdf' && !SCAN_TYPES[row.content_type]) {
    return { ok: false, code: 'not_pdf', reason: 'Only PDF, PNG and JPEG bank statements can be analysed; this file is kept and can be downloaded', pages: null };
  }
  let bytes: Buffer;
  try {
    bytes = await deps.storage.read(row.storage_key, { maxBytes: MAX_DOCUMENT_BYTES });
  } catch (err) {
    if (err instanceof StorageError && err.code !== 'unavailable') return { ok: false, code: err.code === 'too_large' ? 'too_large' : 'unreadable', reason: 'The stored file could not be read', pages: null };
    // Storage unavailable: the job is retried; after its last attempt the statement ends failed
    // rather than `processing` for ever (its batch must complete).
    if (!lastAttempt) throw err;
    return { ok: false, code: 'unreadable', reason: 'The stored file could not be read', pages: null };
  }
  const r = await withReadingSlot(() => analyzeStatement(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), row.content_type));
  if (!r.ok) return { ok: false, code: r.code, reason: r.reason, pages: r.pages };
  return { ok: true, figures: r.figures satisfies StatementFigures as StoredStatement, pages: r.pages };
}

/** The `statement.analyze` job: one document. Idempotent: a document already finished only completes its batch. */
export async function runAnalyzeJob(
  deps: Deps,
  payload: unknown,
  job: { attempts: number; max_attempts: number } = { attempts: 0, max_attempts: 1 },
  o: { abandoned?: boolean } = {},
): Promise<void> {
  const { document_id: id, location_id: locationId } = payload as { document_id: string; location_id: string };
  const scope = systemScope(locationId);
  const row: DocumentRow | undefined = await deps.db.knex('documents').where({ id, location_id: locationId }).first();
  if (!row) return;
  if (!finished(row.status)) {
    if (row.status !== 'processing') {
      await updateDocumentRow(deps.db.knex, scope, id, { status: 'processing', updated_at: deps.clock.now() });
    }
    const outcome: Outcome = o.abandoned
      ? { ok: false, code: 'resource_limit', reason: `Reading the PDF stopped the analysis ${job.attempts} times; it is not read again`, pages: null }
      : await analyze(deps, row, job.attempts + 1 >= job.max_attempts);
    await deps.db.knex.transaction(async (trx) => {
      await lockDeal(trx, scope, row.deal_id);
      const current: DocumentRow | undefined = await trx('documents').where({ id, location_id: locationId }).forUpdate().first();
      if (!current || finished(current.status)) return; // another run recorded it first
      const now = deps.clock.now();
      const patch: Partial<DocumentRow> = outcome.ok
        ? { status: 'processed', statement: outcome.figures as unknown as Record<string, unknown>, failure_code: null, failure_reason: null, pages: outcome.pages, processed_at: now, updated_at: now }
        : { status: 'failed', statement: null, failure_code: contractFailureCode(outcome.code), failure_reason: outcome.reason, pages: outcome.pages, processed_at: now, updated_at: now };
      await updateDocumentRow(trx, scope, id, patch);
      const failure = failureOf({ status: outcome.ok ? 'processed' : 'failed', failure_code: patch.failure_code ?? null, failure_reason: patch.failure_reason ?? null });
      await recordEvent(trx, deps.clock, locationId, 'document.processed', {
        document_id: id, deal_id: row.deal_id, parsed: outcome.ok, ...failure, statement: outcome.ok ? statementSnapshot(outcome.figures) : null,
      });
      const business = await trx('businesses').where({ id: row.business_id, location_id: locationId }).first('legal_name');
      await recordActivity(trx, deps.clock, scope, {
        businessId: row.business_id, dealId: row.deal_id, entityType: 'document', entityId: id, entityName: business?.legal_name ?? '',
        action: 'document.processed',
        description: outcome.ok ? `Bank statement ${row.filename} analysed` : `Bank statement ${row.filename} could not be analysed: ${outcome.reason}`,
        data: { deal_id: row.deal_id, parsed: outcome.ok, ...(outcome.ok ? {} : { failure_code: failure.failure_code }) },
      });
      await completeIfDone(trx, deps, scope, row.deal_id);
    });
    return;
  }
  await deps.db.knex.transaction(async (trx) => {
    await lockDeal(trx, scope, row.deal_id);
    await completeIfDone(trx, deps, scope, row.deal_id);
  });
}

/** Under the deal's lock: completes the latest batch when every document of it has finished. */
async function completeIfDone(trx: Knex.Transaction, deps: Deps, scope: Scope, dealId: string): Promise<void> {
  const { latest } = await latestBatches(trx, scope, dealId);
  if (!latest || latest.status !== 'processing') return;
  const docs = await documentsByIds(trx, scope, latest.document_ids);
  if (docs.length === latest.document_ids.length && !docs.every((d) => finished(d.status))) return;
  const parsed = docs.filter((d) => d.status === 'processed' && d.statement).map((d) => d.statement as unknown as StoredStatement);
  const summary = summarize(parsed);
  const now = deps.clock.now();
  await completeBatchRow(trx, scope, latest.id, { statements_parsed: parsed.length, summary: summary as Record<string, unknown> | null, completed_at: now });
  await recordEvent(trx, deps.clock, scope.locationId, 'statement.analyzed', {
    deal_id: dealId, document_ids: latest.document_ids, statements_parsed: parsed.length, summary,
  });
}

/** Oldest period first, statements that could not be read first. */
function orderStatements(rows: DocumentRow[]): DocumentRow[] {
  const key = (r: DocumentRow) => (r.status === 'processed' && r.statement ? String((r.statement as { period_start?: string }).period_start ?? '') : '');
  return [...rows].sort((a, b) => key(a).localeCompare(key(b)) || a.created_at.valueOf() - b.created_at.valueOf());
}

export async function getDealStatementAnalysis(deps: Deps, scope: Scope, dealId: string): Promise<components['schemas']['StatementAnalysis']> {
  await getVisibleDealOr404(deps.db.knex, scope, dealId);
  const { latest, completed } = await latestBatches(deps.db.knex, scope, dealId);
  if (!latest) return { deal_id: dealId, status: 'none', statements_parsed: 0, document_ids: [], summary: null, statements: [], analyzed_at: null };
  const docs = await documentsByIds(deps.db.knex, scope, latest.document_ids);
  const done = orderStatements(docs.filter((d) => finished(d.status)));
  return {
    deal_id: dealId,
    status: latest.status === 'completed' ? 'completed' : 'processing',
    statements_parsed: done.filter((d) => d.status === 'processed').length,
    document_ids: latest.document_ids,
    summary: (completed?.summary as components['schemas']['StatementSummary'] | null) ?? null,
    statements: done.map(toStatement),
    analyzed_at: completed?.completed_at ? new Date(completed.completed_at).toISOString() : null,
  };
}

export function registerStatementJobs(): void {
  registerJobHandler(ANALYZE_QUEUE, (deps, payload, job) => runAnalyzeJob(deps, payload, job), {
    backoffMs: [10_000, 60_000],
    concurrency: MAX_CONCURRENT_ANALYSES,
    exhausted: (deps, payload, job) => runAnalyzeJob(deps, payload, job, { abandoned: true }),
  });
}

