import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import { checkKey, StorageError, type PresignedUpload, type Storage, type StoredObject } from './storage';

// S3-compatible object storage. Upload URLs are presigned PutObject requests with Content-Type and
// Content-Length among the signed headers, so the store itself refuses another size or type; the
// bucket stays private (downloads are presigned GetObject URLs with the file name). Errors become
// StorageError with fixed sentences: no SDK text, no credentials, in any message.

const isMissing = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
};
const unavailable = () => new StorageError('unavailable', 'The document store did not answer; try again');
const seconds = (from: Date, to: Date) => Math.max(1, Math.ceil((to.getTime() - from.getTime()) / 1000));

// The SDK (~0.1 s of CPU to load) is imported when an S3 store is made, not when this module is: a
// server on the local store never loads it. Made at start, it has loaded before the first request.
const loadSdk = () => Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/s3-request-presigner')]);

export function createS3Storage(o: { bucket: string; endpoint?: string; region: string; forcePathStyle: boolean; credentials?: { accessKeyId: string; secretAccessKey: string } }): Storage {
  const sdk = loadSdk().then(([s3, presigner]) => ({ ...s3, getSignedUrl: presigner.getSignedUrl, client: newClient(s3.S3Client, o) }));
  sdk.catch(() => undefined); // reported by the first operation that needs it
  return s3Storage(o, sdk);
}

function newClient(S3: typeof S3Client, o: Parameters<typeof createS3Storage>[0]): S3Client {
  return new S3({
    region: o.region,
    endpoint: o.endpoint,
    forcePathStyle: o.forcePathStyle,
    credentials: o.credentials,
    // No flexible checksums on presigned URLs: the SDK would sign a CRC32 of the empty body it
    // presigns, and S3 would then refuse every real upload as a bad digest.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
    requestHandler: { requestTimeout: 30_000, connectionTimeout: 5_000 } as never,
  });
}

type Sdk = typeof import('@aws-sdk/client-s3') & { getSignedUrl: typeof import('@aws-sdk/s3-request-presigner').getSignedUrl; client: S3Client };

function s3Storage(o: Parameters<typeof createS3Storage>[0], sdk: Promise<Sdk>): Storage {
  const Bucket = o.bucket;
  const head = async (key: string) => {
    const { client, HeadObjectCommand } = await sdk;
    try {
      const h = await client.send(new HeadObjectCommand({ Bucket, Key: checkKey(key) }));
      return { size: Number(h.ContentLength ?? 0) };
    } catch (err) {
      if (isMissing(err)) return null;
      throw unavailable();
    }
  };

  return {
    kind: 's3',
    uploadOrigin: o.endpoint ? new URL(o.endpoint).origin : `https://${Bucket}.s3.${o.region}.amazonaws.com`,

    async presignUpload(key, p): Promise<PresignedUpload> {
      const { client, getSignedUrl, PutObjectCommand } = await sdk;
      const cmd = new PutObjectCommand({ Bucket, Key: checkKey(key), ContentType: p.contentType, ContentLength: p.size });
      const url = await getSignedUrl(client, cmd, { expiresIn: seconds(p.now, p.expiresAt), signingDate: p.now, signableHeaders: new Set(['content-type', 'content-length']) });
      return { url, method: 'PUT', headers: { 'Content-Type': p.contentType }, expiresAt: p.expiresAt };
    },

    async presignDownload(key, p): Promise<string> {
      const { client, getSignedUrl, GetObjectCommand } = await sdk;
      const ascii = p.filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
      const cmd = new GetObjectCommand({
        Bucket, Key: checkKey(key), ResponseContentType: p.contentType,
        ResponseContentDisposition: `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(p.filename)}`,
      });
      return getSignedUrl(client, cmd, { expiresIn: seconds(p.now, p.expiresAt), signingDate: p.now });
    },

    async describe(key): Promise<StoredObject | null> {
      const { client, GetObjectCommand } = await sdk;
      let body: Readable;
      try {
        const r = await client.send(new GetObjectCommand({ Bucket, Key: checkKey(key) }));
        body = r.Body as Readable;
      } catch (err) {
        if (isMissing(err)) return null;
        throw unavailable();
      }
      const hash = createHash('sha256');
      let size = 0;
      try {
        for await (const chunk of body) {
          size += (chunk as Buffer).length;
          hash.update(chunk as Buffer);
        }
      } catch {
        throw unavailable();
      }
      return { size, sha256: hash.digest('hex') };
    },

    async read(key, r = {}): Promise<Buffer> {
      const h = await head(key);
      if (!h) throw new StorageError('not_found', 'No file is stored under this key');
      if (r.maxBytes !== undefined && h.size > r.maxBytes) throw new StorageError('too_large', `The stored file is larger than ${r.maxBytes} bytes`);
      const { client, GetObjectCommand } = await sdk;
      try {
        const res = await client.send(new GetObjectCommand({ Bucket, Key: checkKey(key) }));
        const chunks: Buffer[] = [];
        let n = 0;
        for await (const chunk of res.Body as Readable) {
          n += (chunk as Buffer).length;
          if (r.maxBytes !== undefined && n > r.maxBytes) throw new StorageError('too_large', `The stored file is larger than ${r.maxBytes} bytes`);
          chunks.push(chunk as Buffer);
        }
        return Buffer.concat(chunks);
      } catch (err) {
        if (err instanceof StorageError) throw err;
        if (isMissing(err)) throw new StorageError('not_found', 'No file is stored under this key');
        throw unavailable();
      }
    },

    async readHead(key, bytes): Promise<Buffer> {
      const { client, GetObjectCommand } = await sdk;
      try {
        const res = await client.send(new GetObjectCommand({ Bucket, Key: checkKey(key), Range: `bytes=0-${Math.max(0, bytes - 1)}` }));
        const chunks: Buffer[] = [];
        for await (const chunk of res.Body as Readable) chunks.push(chunk as Buffer);
        return Buffer.concat(chunks).subarray(0, bytes);
      } catch (err) {
        if (isMissing(err)) throw new StorageError('not_found', 'No file is stored under this key');
        throw unavailable();
      }
    },

    async put(key, bytes, contentType): Promise<void> {
      const { client, PutObjectCommand } = await sdk;
      try {
        await client.send(new PutObjectCommand({ Bucket, Key: checkKey(key), Body: bytes, ContentType: contentType }));
      } catch {
        throw unavailable();
      }
    },

    // A server-side copy to a key no upload URL was ever signed for: a presigned PUT cannot be
    // revoked before its expiry, so the pinned copy, not the upload key, is what is read afterwards.
    async pin(from, to): Promise<void> {
      const { client, CopyObjectCommand } = await sdk;
      try {
        await client.send(new CopyObjectCommand({ Bucket, Key: checkKey(to), CopySource: `${Bucket}/${checkKey(from).split('/').map(encodeURIComponent).join('/')}`, MetadataDirective: 'COPY' }));
      } catch (err) {
        if (isMissing(err)) throw new StorageError('not_found', 'No file is stored under this key');
        throw unavailable();
      }
    },

    async delete(key): Promise<void> {
      const { client, DeleteObjectCommand } = await sdk;
      try {
        await client.send(new DeleteObjectCommand({ Bucket, Key: checkKey(key) }));
      } catch (err) {
        if (!isMissing(err)) throw unavailable();
      }
    },

    async close(): Promise<void> {
      (await sdk.catch(() => undefined))?.client.destroy();
    },
  };
}
