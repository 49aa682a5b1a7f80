// The storage interface shared by both back ends (local.ts, s3.ts) and everything that uses one.

export interface PresignedUpload {
  url: string;
  method: 'PUT';
  /** What the client must send with the bytes (Content-Type). */
  headers: Record<string, string>;
  expiresAt: Date;
}

export interface StoredObject {
  size: number;
  /** Lowercase hex SHA-256 of the bytes. */
  sha256: string;
}

export type StorageErrorCode = 'not_found' | 'too_large' | 'unavailable';

/** A storage failure with a fixed sentence (never the SDK's or the file system's text). */
export class StorageError extends Error {
  override readonly name = 'StorageError';
  constructor(
    readonly code: StorageErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export interface Storage {
  readonly kind: 'local' | 's3';
  /** Origin browsers upload to (for a page's Content-Security-Policy connect-src); null: this server. */
  readonly uploadOrigin: string | null;
  /** A URL to PUT exactly `size` bytes of `contentType` to until `expiresAt`; another size or type fails. */
  presignUpload(key: string, o: { contentType: string; size: number; expiresAt: Date; now: Date }): Promise<PresignedUpload>;
  /** A GET URL downloading the object as an attachment named `filename`, until `expiresAt`. */
  presignDownload(key: string, o: { filename: string; contentType: string; expiresAt: Date; now: Date }): Promise<string>;
  /** Size and SHA-256 of what is stored under key (streamed), or null when nothing is. */
  describe(key: string): Promise<StoredObject | null>;
  /** The bytes; StorageError 'too_large' beyond maxBytes (checked before reading), 'not_found'. */
  read(key: string, o?: { maxBytes?: number }): Promise<Buffer>;
  /** The first `bytes` bytes (fewer when the object is shorter); StorageError 'not_found'. */
  readHead(key: string, bytes: number): Promise<Buffer>;
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /**
   * Stores under `to` what is stored under `from` now (StorageError 'not_found' when nothing is).
   * Later writes to `from` (an upload URL still valid) never change what `to` holds.
   */
  pin(from: string, to: string): Promise<void>;
  /** Idempotent. */
  delete(key: string): Promise<void>;
  close?(): Promise<void>;
}

/** Keys are relative paths of [A-Za-z0-9_.-] segments; nothing that could leave the root. */
export const KEY_RE = /^(?!.*(?:^|\/)\.\.?(?:\/|$))[A-Za-z0-9_.-]+(?:\/[A-Za-z0-9_.-]+)*$/;

export function checkKey(key: string): string {
  if (!KEY_RE.test(key) || key.length > 512) throw new StorageError('not_found', 'Invalid storage key');
  return key;
}
