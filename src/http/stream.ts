import type { Request, Response } from 'express';
import { csvColumns, csvHeader, csvRow } from './csv';
import type { RequestLife } from './lifecycle';
import type { OperationInfo } from './spec';

/** What a streamed operation's handler answers: its lines, produced as they are read. */
export interface StreamedReply {
  status: 200;
  contentType: string;
  filename: string;
  stream: AsyncIterable<string>;
}

/** CSV export pages are read this many records at a time (the largest page a list serves). */
export const CSV_PAGE_SIZE = 100;

/** Writes `chunk`; resolves when the socket can take more (backpressure) or the client is gone. */
async function write(res: Response, chunk: string): Promise<void> {
  if (res.write(chunk)) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

function startStream(res: Response, contentType: string, filename: string): void {
  res.status(200);
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Disposition', `attachment; filename="${filename}"`);
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Content-Type-Options', 'nosniff');
}

/**
 * A failure after the first byte cannot become an error envelope (the status is sent): the
 * connection is cut without the chunked terminator, so the client sees an incomplete transfer,
 * never a file that looks whole.
 */
function abort(req: Request, res: Response, err: unknown): void {
  req.log.error({ err: { message: (err as Error).message, code: (err as { code?: string }).code } }, 'streamed answer failed after its first byte');
  res.destroy();
}

/**
 * `Accept: text/csv` on a list operation: the list's own handler is called page after page
 * (`limit` 100, `cursor` = the previous page's `meta.next_cursor`, every filter as sent), and each
 * page is written as CSV rows as soon as it is read; the next page is not read before the socket
 * has taken the previous one (backpressure), so memory holds one page, whatever the list's length.
 * An error before the first page is written is thrown (the JSON error envelope); a `cursor` sent
 * starts the export there; `limit` does not bound it (it runs to the end of the list).
 */
export async function streamCsv(
  req: Request,
  res: Response,
  life: RequestLife,
  o: { spec: Record<string, unknown>; op: OperationInfo; now: Date; page: (query: Record<string, unknown>) => Promise<{ status: number; body: { data: unknown[]; meta?: { next_cursor?: string | null } } }> },
): Promise<void> {
  const columns = csvColumns(o.spec, o.op.path, o.op.method);
  if (!columns) throw new Error(`${o.op.operationId} offers text/csv without a list schema`);
  const name = o.op.operationId.replace(/^list/, '').replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
  const filename = `${name}-${o.now.toISOString().slice(0, 10)}.csv`;
  let started = false;
  await life.run(async () => {
    let cursor = (req.query as Record<string, unknown>).cursor as string | undefined;
    try {
      for (;;) {
        const r = await o.page({ ...(req.query as Record<string, unknown>), limit: CSV_PAGE_SIZE, ...(cursor ? { cursor } : {}) });
        if (!started) {
          startStream(res, 'text/csv; charset=utf-8; header=present', filename);
          started = true;
          await write(res, csvHeader(columns));
        }
        if (r.body.data.length) await write(res, r.body.data.map((rec) => csvRow(columns, rec)).join(''));
        const next = r.body.meta?.next_cursor;
        if (!next || life.clientGone || res.destroyed) break;
        cursor = next;
      }
    } catch (err) {
      if (!started) throw err;
      abort(req, res, err);
      return { status: 200 };
    }
    res.end();
    return { status: 200 };
  });
}

/** A streamed operation's lines, written with backpressure; the stream is closed if the client leaves. */
export async function streamReply(req: Request, res: Response, life: RequestLife, reply: StreamedReply): Promise<void> {
  const it = reply.stream[Symbol.asyncIterator]();
  let started = false;
  const ran = await life.run(async () => {
    try {
      for (;;) {
        const next = await it.next();
        if (!started) {
          startStream(res, reply.contentType, reply.filename);
          started = true;
        }
        if (next.done) break;
        await write(res, next.value);
        if (life.clientGone || res.destroyed) break;
      }
    } catch (err) {
      if (!started) throw err;
      abort(req, res, err);
      return { status: 200 };
    } finally {
      await it.return?.();
    }
    res.end();
    return { status: 200 };
  });
  if (!ran) await it.return?.();
}
