import type { CredentialWatch, Database } from '../db/engine';

/**
 * What authentication learned about a credential, per process, keyed by the credential's SHA-256
 * (never the credential itself). Trusted only while the database's credential listener is live
 * (`CredentialWatch`, src/db/engine.ts) and only at the generation it was read at: any change to a
 * key, token, user or location (migration 0025's triggers, NOTIFY at commit) or a lost listener makes
 * every entry stale, and while the listener is not proven live every request asks the database. So a
 * revoked key, a deactivated user or a changed scope is seen by the next request, as without a cache.
 * Unknown credentials are never cached (a new key works at once; a spray of guesses costs no memory).
 */
export class CredentialCache<Row> {
  private entries = new Map<string, Row>();
  private generation = -1;

  constructor(private readonly source: { credentialWatch?: CredentialWatch }, private readonly max = 20_000) {}

  /** The generation a lookup starts at, to hand to `set`; undefined when the cache may not be used now. */
  stamp(): number | undefined {
    const watch = this.source.credentialWatch;
    return watch?.live ? watch.generation : undefined;
  }

  get(hash: string): Row | undefined {
    const gen = this.stamp();
    if (gen === undefined) return undefined;
    if (gen !== this.generation) {
      this.entries.clear();
      this.generation = gen;
      return undefined;
    }
    return this.entries.get(hash);
  }

  /** Keeps what a lookup that started at `stamp` read, unless anything changed since it started. */
  set(hash: string, row: Row, stamp: number | undefined): void {
    if (stamp === undefined || this.stamp() !== stamp) return;
    if (stamp !== this.generation) {
      this.entries.clear();
      this.generation = stamp;
    }
    if (this.entries.size >= this.max) this.entries.clear();
    this.entries.set(hash, row);
  }
}

const caches = new WeakMap<Database, CredentialCache<unknown>>();

/** The process's cache for `db` (one per database, shared by /v1 and /mcp). */
export function credentialCacheFor<Row>(db: Database): CredentialCache<Row> {
  let c = caches.get(db);
  if (!c) caches.set(db, (c = new CredentialCache<unknown>(db)));
  return c as CredentialCache<Row>;
}
