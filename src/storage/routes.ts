import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, stat, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
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
// only when exactly `size` bytes arrived, so a refused, cut-off or oversized upload leaves nothing.

type Logger = { warn: (o: object, msg: string) => void };

function fail(res: Response, status: number, code: string, message: string): void {
  if (res.headersSent) return;
  const requestId = res.getHeader('X-Request-Id');
  res.status(status).set({ 'Cache-Control': 'no-store', Connection: 'close' })
    .json({ error: { type: typeOfStatus(status), code, message, ...(requestId ? { request_id: String(requestId) } : {}) } });
}

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

export function localStorageRoutes(storage: Storage, o: { clock: () => Date; logger?: Logger }): Router {
  const local = storage as LocalStorage;
  const router = express.Router();

  router.put(/^\/files\/upload\/.+/, async (req, res) => {
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

    const target = local.pathOf(key);
    await mkdir(dirname(target), { recursive: true });
    const tmp = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}.part`;
    const out = createWriteStream(tmp, { flags: 'wx' });
    let received = 0;
    let refused = false;
    const discard = () => unlink(tmp).catch(() => undefined);
    const done = await new Promise<'ok' | 'over' | 'short' | 'error'>((resolve) => {
      req.on('data', (chunk: Buffer) => {
        if (refused) return;
        received += chunk.length;
        if (received > size) {
          refused = true;
          req.unpipe(out);
          out.destroy();
          resolve('over');
          return;
        }
      });
      req.on('aborted', () => resolve('short'));
      req.on('error', () => resolve('short'));
      out.on('error', () => resolve('error'));
      out.on('finish', () => resolve(received === size ? 'ok' : 'short'));
      req.pipe(out);
    });
    if (done !== 'ok') {
      await discard();
      if (done === 'over') return fail(res, 413, 'upload_size_mismatch', `The upload is larger than the declared ${size} bytes (size_bytes)`);
      if (done === 'short') return fail(res, 400, 'upload_size_mismatch', `The upload ended after ${received} of the declared ${size} bytes; send the whole file`);
      o.logger?.warn({ key }, 'local storage could not write an upload');
      return fail(res, 503, 'storage_unavailable', 'The file could not be stored; try again');
    }
    try {
      await rename(tmp, target);
    } catch {
      await discard();
      return fail(res, 503, 'storage_unavailable', 'The file could not be stored; try again');
    }
    res.status(200).set('Cache-Control', 'no-store').end();
  });

  router.get(/^\/files\/download\/.+/, async (req, res) => {
    const key = keyOf(req, '/files/download/');
    const expires = Number(q(req, 'expires'));
    const filename = q(req, 'filename');
    const type = q(req, 'type');
    if (!key || !Number.isInteger(expires) || !filename || !type ||
      !sameSignature(q(req, 'signature'), local.signature(['GET', key, String(expires), filename, type]))) {
      return fail(res, 403, 'download_url_invalid', 'This download URL is not valid; fetch the document again for a new one');
    }
    if (o.clock().getTime() >= expires * 1000) return fail(res, 403, 'download_url_expired', 'This download URL has expired; fetch the document again for a new one');
    const path = local.pathOf(key);
    let size: number;
    try {
      const st = await stat(path);
      if (!st.isFile()) throw new Error('not a file');
      size = st.size;
    } catch {
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
    createReadStream(path).on('error', () => res.destroy()).pipe(res);
  });

  return router;
}
