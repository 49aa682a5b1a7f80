import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, link, mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { checkKey, StorageError, type PresignedUpload, type Storage, type StoredObject } from './storage';

// The local folder back end. Its URLs point at this server (`/files/upload/<key>` and
// `/files/download/<key>`, see ./routes.ts) and carry an HMAC over everything they allow, with an
// expiry in Unix seconds: a changed size, type, key, file name or expiry invalidates the signature.

export interface LocalStorage extends Storage {
  readonly kind: 'local';
  readonly root: string;
  pathOf(key: string): string;
  /** The signature an upload or download URL must carry (hex). */
  signature(fields: string[]): string;
}

const enc = encodeURIComponent;
const keyPath = (key: string) => key.split('/').map(enc).join('/');

export function createLocalStorage(o: { root: string; publicBaseUrl: string; signingKey: string }): LocalStorage {
  const base = o.publicBaseUrl.replace(/\/+$/, '');
  const signature = (fields: string[]) => createHmac('sha256', o.signingKey).update(fields.join('\n')).digest('hex');
  const pathOf = (key: string) => join(o.root, checkKey(key));

  const storage: LocalStorage = {
    kind: 'local',
    uploadOrigin: null,
    root: o.root,
    pathOf,
    signature,

    async presignUpload(key, p): Promise<PresignedUpload> {
      checkKey(key);
      const expires = Math.floor(p.expiresAt.getTime() / 1000);
      const sig = signature(['PUT', key, String(expires), String(p.size), p.contentType]);
      const url = `${base}/files/upload/${keyPath(key)}?expires=${expires}&size=${p.size}&type=${enc(p.contentType)}&signature=${sig}`;
      return { url, method: 'PUT', headers: { 'Content-Type': p.contentType }, expiresAt: p.expiresAt };
    },

    async presignDownload(key, p): Promise<string> {
      checkKey(key);
      const expires = Math.floor(p.expiresAt.getTime() / 1000);
      const sig = signature(['GET', key, String(expires), p.filename, p.contentType]);
      return `${base}/files/download/${keyPath(key)}?expires=${expires}&filename=${enc(p.filename)}&type=${enc(p.contentType)}&signature=${sig}`;
    },

    async describe(key): Promise<StoredObject | null> {
      const path = pathOf(key);
      try {
        const st = await stat(path);
        if (!st.isFile()) return null;
      } catch {
        return null;
      }
      const hash = createHash('sha256');
      let size = 0;
      await new Promise<void>((resolve, reject) => {
        createReadStream(path)
          .on('data', (c: Buffer | string) => {
            const b = typeof c === 'string' ? Buffer.from(c) : c;
            size += b.length;
            hash.update(b);
          })
          .on('end', () => resolve())
          .on('error', () => reject(new StorageError('unavailable', 'The stored file could not be read')));
      });
      return { size, sha256: hash.digest('hex') };
    },

    async read(key, r = {}): Promise<Buffer> {
      const path = pathOf(key);
      let fh;
      try {
        fh = await open(path, 'r');
      } catch {
        throw new StorageError('not_found', 'No file is stored under this key');
      }
      try {
        const { size } = await fh.stat();
        if (r.maxBytes !== undefined && size > r.maxBytes) throw new StorageError('too_large', `The stored file is larger than ${r.maxBytes} bytes`);
        const buf = Buffer.alloc(size);
        let at = 0;
        while (at < size) {
          const { bytesRead } = await fh.read(buf, at, size - at, at);
          if (!bytesRead) break;
          at += bytesRead;
        }
        return buf.subarray(0, at);
      } finally {
        await fh.close();
      }
    },

    async readHead(key, bytes): Promise<Buffer> {
      let fh;
      try {
        fh = await open(pathOf(key), 'r');
      } catch {
        throw new StorageError('not_found', 'No file is stored under this key');
      }
      try {
        const buf = Buffer.alloc(bytes);
        const { bytesRead } = await fh.read(buf, 0, bytes, 0);
        return buf.subarray(0, bytesRead);
      } finally {
        await fh.close();
      }
    },

    async put(key, bytes): Promise<void> {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
      const fh = await open(tmp, 'w');
      try {
        await fh.writeFile(bytes);
      } finally {
        await fh.close();
      }
      await rename(tmp, path);
    },

    // A hard link to the file's inode (a copy where links are not supported): an upload replaces the
    // name `from` by renaming a new file over it, never writing into the old inode, so `to` keeps
    // exactly the bytes it was pinned with.
    async pin(from, to): Promise<void> {
      const src = pathOf(from);
      const dst = pathOf(to);
      const tmp = `${dst}.${process.pid}.${Math.random().toString(36).slice(2)}.pin`;
      try {
        await link(src, tmp).catch(async (err: NodeJS.ErrnoException) => {
          if (err.code === 'ENOENT') throw err;
          await copyFile(src, tmp);
        });
        await rename(tmp, dst);
      } catch (err) {
        await unlink(tmp).catch(() => undefined);
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new StorageError('not_found', 'No file is stored under this key');
        throw new StorageError('unavailable', 'The stored file could not be pinned');
      }
    },

    async delete(key): Promise<void> {
      await unlink(pathOf(key)).catch(() => undefined);
    },

    async close(): Promise<void> {},
  };
  return storage;
}

/** Constant-time comparison of two hex signatures. */
export function sameSignature(given: string, expected: string): boolean {
  if (!/^[0-9a-f]{64}$/.test(given)) return false;
  return timingSafeEqual(Buffer.from(given, 'hex'), Buffer.from(expected, 'hex'));
}

