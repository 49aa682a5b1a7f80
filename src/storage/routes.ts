import { EventEmitter } from 'node:events';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, rename, stat, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { pipeline, Transform } from 'node:stream';
import express, { type Request, type Response, type Router } from 'express';
import { typeOfStatus } from '../http/errors';
import { KEY_RE, type Storage } from './index';
import { sameSignature, type LocalStorage } from './local';

// The local back end's two routes, mounted before any body parser (the body is the file's raw
// bytes, up to 25 MB, streamed to disk, never buffered):
//
//   PUT /files/upload/<key>?expires&size&type&signature    the presigned upload
//   GET /files/download/<key>?expires&filename&type&signature
//
// An upload must carry exactly the signed Content-Type and size before the signed expiry (read from
// the injected clock). The bytes go to a temporary file beside the target and are renamed over it
// only when exactly `size` bytes arrived, so a refused, cut-off or oversized upload leaves nothing:
// on every other ending (client gone mid-body, more bytes than declared, a disk error) the file's
// stream is destroyed, its descriptor closed and the temporary file removed before the request is
// over. One upload per key at a time (a second one answers 409 while the first runs), none once the
// key's document has left `pending_upload` (`uploadOpen`), and each route has its own bound on
// requests at once (beyond it `503 overloaded` with Retry-After, in the API's error envelope):
// these routes stream for minutes, so they are not counted by the API's admission control.

type Logger = { warn: (o: object, msg: string) => void };

export interface LocalStorageRouteOptions {
  clock: () => Date;
  logger?: Logger;
  /** Uploads streaming at once (STORAGE_MAX_CONCURRENT_UPLOADS, default 16). */
  maxConcurrentUploads?: number;
  /** Downloads streaming at once (STORAGE_MAX_CONCURRENT_DOWNLOADS, default 16). */
  maxConcurrentDownloads?: number;
  /** Whether `key` may still receive bytes (its document is still `pending_upload`); unset: always. */
  uploadOpen?: (key: string) => Promise<boolean>;
}

/**
 * What the routes emit (for tests and metrics): `receiving` (key) when an upload starts writing,
 * `settled` (key, outcome) once an upload is over and everything it opened is closed and removed.
 */
export type StorageRouteEvents = EventEmitter;

export type UploadOutcome = 'stored' | 'over' | 'short' | 'aborted' | 'error' | 'closed';

function fail(res: Response, status: number, code: string, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const requestId = res.getHeader('X-Request-Id');
  res.status(status).set({ 'Cache-Control': 'no-store', Connection: 'close', ...headers })
    .json({ error: { type: typeOfStatus(status), code, message, ...(requestId ? { request_id: String(requestId) } : {}) } });
}

/** A count of requests at once; `take` is false when it is full. */
class Gate {
  n = 0;
  constructor(readonly max: number) {}
  take(): boolean {
    if (this.n >= this.max) return false;
    this.n++;
    return true;
  }
  /** A release that works once. */
  releaser(): () => void {
    let done = false;
    return () => {
      if (!done) {
        done = true;
        this.n--;
      }
    };
  }
}

const busy = (res: Response, what: string) =>
  fail(res, 503, 'overloaded', `The server is at capacity for file ${what}s and did not process this request; retry after 1 second, backing off exponentially with jitter`, { 'Retry-After': '1' });

/** The key of a /files/... path (everything after the prefix), or null when it is not a valid key. */
function keyOf(req: Request, prefix: string): string | null {
  let key: string;
  try {
    key = decodeURIComponent(req.path.slice(prefix.length));
  } catch {
    return null;
  }
  return KEY_RE.test(key) && key.length <= 512 ? key : null;
}

const q = (req: Request, name: string): string => (typeof req.query[name] === 'string' ? (req.query[name] as string) : '');

class Oversize extends Error {}

/** Destroys the stream (if still open) and resolves once its descriptor is closed. */
function closeStream(out: WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (out.closed) return resolve();
    out.once('close', () => resolve());
    out.destroy();
  });
}

export function localStorageRoutes(storage: Storage, o: LocalStorageRouteOptions): Router & { events: StorageRouteEvents } {
  const local = storage as LocalStorage;
  const router = express.Router() as Router & { events: StorageRouteEvents };
  const events = new EventEmitter().setMaxListeners(0);
  router.events = events;
  const uploads = new Gate(o.maxConcurrentUploads ?? 16);
  const downloads = new Gate(o.maxConcurrentDownloads ?? 16);
  /** Keys with an upload streaming now. */
  const writing = new Set<string>();

  router.put(/^\/files\/upload\/.+/, async (req, res) => {
    if (!uploads.take()) return busy(res, 'upload');
    const release = uploads.releaser();
    try {
      await upload(req, res);
    } finally {
      release();
    }
  });

  async function upload(req: Request, res: Response): Promise<void> {
    const key = keyOf(req, '/files/upload/');
    const expires = Number(q(req, 'expires'));
    const size = Number(q(req, 'size'));
    const type = q(req, 'type');
    if (!key || !Number.isInteger(expires) || !Number.isInteger(size) || size < 0 || !type ||
      !sameSignature(q(req, 'signature'), local.signature(['PUT', key, String(expires), String(size), type]))) {
      return fail(res, 403, 'upload_url_invalid', 'This upload URL is not valid; start a new upload to get one');
    }
    if (o.clock().getTime() >= expires * 1000) return fail(res, 403, 'upload_url_expired', 'This upload URL has expired; start a new upload to get a new one');
    const sentType = (req.get('Content-Type') ?? '').split(';')[0].trim().toLowerCase();
    if (sentType !== type.toLowerCase()) return fail(res, 415, 'upload_content_type_mismatch', `Send the file with Content-Type: ${type}, as the upload was declared`);
    const declared = req.get('Content-Length');
    if (declared !== undefined && Number(declared) !== size) {
      return fail(res, Number(declared) > size ? 413 : 400, 'upload_size_mismatch', `The upload must be exactly ${size} bytes (size_bytes); this one is ${declared}`);
    }
    if (writing.has(key)) {
      return fail(res, 409, 'upload_in_progress', 'Another upload to this URL is still in progress; wait for it to finish (one upload at a time per document)');
    }
    writing.add(key);
    try {
      await receive(req, res, key, size);
    } finally {
      writing.delete(key);
    }
  }

  const closedFail = (res: Response) =>
    fail(res, 409, 'upload_closed', 'This document has already been finalized; its upload URL no longer accepts bytes. Start a new upload for another file');

  async function receive(req: Request, res: Response, key: string, size: number): Promise<void> {
    if (o.uploadOpen && !(await o.uploadOpen(key))) {
      events.emit('settled', key, 'closed');
      return closedFail(res);
    }
    const target = local.pathOf(key);
    const tmp = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}.part`;
    let out: WriteStream | undefined;
    let outcome: UploadOutcome = 'error';
    let received = 0;
    try {
      await mkdir(dirname(target), { recursive: true });
      const file = createWriteStream(tmp, { flags: 'wx' });
      out = file;
      events.emit('receiving', key);
      const meter = new Transform({
        transform(chunk: Buffer, _enc, cb) {
          received += chunk.length;
          if (received > size) return cb(new Oversize());
          cb(null, chunk);
        },
      });
      outcome = await new Promise<UploadOutcome>((resolve) => {
        let settled = false;
        const settle = (r: UploadOutcome) => {
          if (settled) return;
          settled = true;
          resolve(r);
        };
        pipeline(meter, file, (err) => {
          if (!err) settle(received === size ? 'stored' : 'short');
          else if (err instanceof Oversize) {
            req.unpipe(meter);
            settle('over');
          }
          else if (req.destroyed && !req.complete) settle('aborted');
          else settle('error');
        });
        // The request is piped by hand (not inside pipeline): on an oversize body the request stays
        // open so that it can be answered 413; on a client gone mid-body the meter is destroyed,
        // which destroys the file stream (pipeline) and so closes its descriptor.
        const gone = () => {
          if (!req.complete) {
            settle('aborted');
            meter.destroy();
          }
        };
        req.once('close', gone);
        req.once('error', gone);
        // The client may have left while the folder was made or the document looked up: its 'close'
        // has been emitted already and will not come again.
        if (req.destroyed || req.socket?.destroyed) gone();
        req.pipe(meter);
      });
      if (outcome === 'stored') {
        await closeStream(file);
        // Finalize may have taken the document while the bytes streamed: then nothing is renamed.
        if (o.uploadOpen && !(await o.uploadOpen(key))) outcome = 'closed';
        else {
          try {
            await rename(tmp, target);
          } catch {
            outcome = 'error';
          }
        }
      }
    } catch {
      outcome = 'error';
    } finally {
      if (out) await closeStream(out);
      if (outcome !== 'stored') await unlink(tmp).catch(() => undefined);
      events.emit('settled', key, outcome);
    }
    switch (outcome) {
      case 'stored':
        res.status(200).set('Cache-Control', 'no-store').end();
        return;
      case 'over':
        return fail(res, 413, 'upload_size_mismatch', `The upload is larger than the declared ${size} bytes (size_bytes)`);
      case 'short':
      case 'aborted':
        return fail(res, 400, 'upload_size_mismatch', `The upload ended after ${received} of the declared ${size} bytes; send the whole file`);
      case 'closed':
        return closedFail(res);
      default:
        o.logger?.warn({ key }, 'local storage could not write an upload');
        return fail(res, 503, 'storage_unavailable', 'The file could not be stored; try again');
    }
  }

  router.get(/^\/files\/download\/.+/, async (req, res) => {
    if (!downloads.take()) return busy(res, 'download');
    const release = downloads.releaser();
    try {
      await download(req, res, release);
    } catch (err) {
      release();
      throw err;
    }
  });

  /** Answers a download; `release` runs once its file is closed (or at once when nothing was opened). */
  async function download(req: Request, res: Response, release: () => void): Promise<void> {
    const key = keyOf(req, '/files/download/');
    const expires = Number(q(req, 'expires'));
    const filename = q(req, 'filename');
    const type = q(req, 'type');
    if (!key || !Number.isInteger(expires) || !filename || !type ||
      !sameSignature(q(req, 'signature'), local.signature(['GET', key, String(expires), filename, type]))) {
      release();
      return fail(res, 403, 'download_url_invalid', 'This download URL is not valid; fetch the document again for a new one');
    }
    if (o.clock().getTime() >= expires * 1000) {
      release();
      return fail(res, 403, 'download_url_expired', 'This download URL has expired; fetch the document again for a new one');
    }
    const path = local.pathOf(key);
    let size: number;
    try {
      const st = await stat(path);
      if (!st.isFile()) throw new Error('not a file');
      size = st.size;
    } catch {
      release();
      return fail(res, 404, 'file_not_found', 'The file is no longer stored');
    }
    const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
    res.status(200).set({
      'Content-Type': type,
      'Content-Length': String(size),
      'Content-Disposition': `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`,
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'private, no-store',
      'Content-Security-Policy': "default-src 'none'; sandbox",
    });
    // pipeline, not pipe: a client gone mid-download destroys the file stream (its descriptor closes).
    pipeline(createReadStream(path), res, () => release());
  }

  return router;
}
