// Where document bytes live, behind one small interface with two back ends: a local folder (the
// embedded default, `${DATA_DIR}/files`, served by this server's own signed upload and download
// routes) and S3-compatible object storage (STORAGE_URL=s3://bucket?endpoint=...). Clients never
// send file bytes through the JSON API: they PUT to a presigned URL and download from a short-lived
// signed URL; neither is ever public.
import { createLocalStorage } from './local';
import { createS3Storage } from './s3';

// The interface, its error and the key rule live in storage.ts (the back ends import them from there).
export * from './storage';
import type { Storage } from './storage';

export interface StorageOptions {
  storageUrl?: string;
  dataDir: string;
  publicBaseUrl: string;
  signingKey: string;
  s3Credentials?: { accessKeyId: string; secretAccessKey: string };
}

export type ParsedStorageUrl = { kind: 'local' } | { kind: 's3'; bucket: string; endpoint?: string; region: string; forcePathStyle: boolean };

/** `s3://bucket?endpoint=http://127.0.0.1:4569&region=us-east-1&force_path_style=true`; unset or `file:` is local. */
export function parseStorageUrl(url: string | undefined): ParsedStorageUrl {
  if (!url || url.startsWith('file:')) return { kind: 'local' };
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new Error('STORAGE_URL is not a URL; use s3://bucket?endpoint=https://host&region=us-east-1');
  }
  if (u.protocol !== 's3:') throw new Error(`STORAGE_URL must start with s3:// (got ${u.protocol}//)`);
  const bucket = u.hostname;
  if (!bucket) throw new Error('STORAGE_URL names no bucket: use s3://bucket');
  if (u.pathname && u.pathname !== '/') throw new Error('STORAGE_URL takes no path after the bucket');
  if (u.username || u.password) throw new Error('STORAGE_URL must not carry credentials: use AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY');
  for (const k of u.searchParams.keys()) {
    if (!['endpoint', 'region', 'force_path_style'].includes(k)) throw new Error(`STORAGE_URL has an unknown parameter ${k} (endpoint, region, force_path_style)`);
  }
  const endpoint = u.searchParams.get('endpoint') ?? undefined;
  if (endpoint !== undefined) {
    let e: URL;
    try {
      e = new URL(endpoint);
    } catch {
      throw new Error('STORAGE_URL endpoint is not a URL');
    }
    if (e.protocol !== 'http:' && e.protocol !== 'https:') throw new Error('STORAGE_URL endpoint must be http:// or https://');
  }
  const fps = u.searchParams.get('force_path_style');
  if (fps !== null && fps !== 'true' && fps !== 'false') throw new Error('STORAGE_URL force_path_style must be true or false');
  return { kind: 's3', bucket, endpoint, region: u.searchParams.get('region') || 'us-east-1', forcePathStyle: fps === null ? endpoint !== undefined : fps === 'true' };
}

export function createStorage(o: StorageOptions): Storage {
  const parsed = parseStorageUrl(o.storageUrl);
  if (parsed.kind === 'local') return createLocalStorage({ root: `${o.dataDir.replace(/\/+$/, '')}/files`, publicBaseUrl: o.publicBaseUrl, signingKey: o.signingKey });
  return createS3Storage({ ...parsed, credentials: o.s3Credentials });
}
