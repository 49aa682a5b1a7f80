import type { Deps } from '../deps';

// Attachments of outgoing mail. An attachment is never stored as bytes: `outgoing_emails.attachments`
// holds `{ filename, content_type, source: { kind, ref } }`, and at send time the source registered
// for `kind` produces the bytes from `ref` (for example `submission_package` + a submission id). A
// retry therefore sends what the source makes again (identical bytes when the source is
// deterministic, as the submission package is), and the table does not hold every package ever sent.
//
// A source is looked up when the message is sent, not when it is queued: a source kind this server
// does not have ends the message at once (`dead`, it can never be produced); a source that throws,
// produces no bytes or takes too long fails the attempt, which is retried on the job's backoff like
// any other failure. What is recorded is a fixed sentence naming the attachment's position and the
// source kind, never the source's own error text.

/** What a source is told besides its `ref`: whose message it is (scope every read by `locationId`). */
export interface AttachmentSourceContext {
  locationId: string;
  emailId: string;
  /** Aborted when the attempt gives up waiting for the bytes. */
  signal: AbortSignal;
}

/** Produces the bytes of one attachment. Throw to fail the attempt (it is retried). */
export type AttachmentSource = (deps: Deps, ref: string, ctx: AttachmentSourceContext) => Promise<Uint8Array>;

/** An attachment as `queueEmail` takes it. */
export interface AttachmentSpec {
  /** The file name the recipient sees: no path separators, no line breaks or control characters, at most 200 characters. */
  filename: string;
  /** A MIME type without parameters, e.g. `application/pdf`. */
  contentType: string;
  /** Which registered source makes the bytes (`kind`), and what from (`ref`, e.g. an id). */
  source: { kind: string; ref: string };
}

/** An attachment as stored in `outgoing_emails.attachments`. */
export interface StoredAttachment {
  filename: string;
  content_type: string;
  source: { kind: string; ref: string };
}

/** An attachment with its bytes, ready for the SMTP exchange. */
export interface ResolvedAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

export const MAX_ATTACHMENTS = 10;
export const MAX_ATTACHMENT_FILENAME_LENGTH = 200;
/** The bytes of every attachment of one message together (before base64). */
export const MAX_ATTACHMENTS_BYTES = 25 * 1024 * 1024;

export const ATTACHMENT_SOURCE_KIND = /^[a-z][a-z0-9_.-]{0,63}$/;
const MAX_REF_LENGTH = 500;
// RFC 6838 restricted names, type/subtype, no parameters.
const CONTENT_TYPE = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}$/;
// C0 controls (CR and LF among them), DEL, C1 controls, and the Unicode line and paragraph separators.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

// ---------------------------------------------------------------- the registry

const sources = new Map<string, AttachmentSource>();

/**
 * Registers the source of an attachment kind (where the worker is wired, like the job handlers).
 * Registering a kind again replaces its source. Returns a function restoring what was there before.
 */
export function registerAttachmentSource(kind: string, source: AttachmentSource): () => void {
  if (!ATTACHMENT_SOURCE_KIND.test(kind)) throw new Error(`attachment source kind must match ${ATTACHMENT_SOURCE_KIND} (got "${kind}")`);
  if (typeof source !== 'function') throw new Error('an attachment source must be a function (deps, ref, ctx) => Promise<Uint8Array>');
  const previous = sources.get(kind);
  sources.set(kind, source);
  return () => {
    if (previous) sources.set(kind, previous);
    else sources.delete(kind);
  };
}

export function hasAttachmentSource(kind: string): boolean {
  return sources.has(kind);
}

// ---------------------------------------------------------------- validation (at queue time)

/** Why an attachment is refused (a sentence naming `where`, never repeating the value), or null. */
export function attachmentProblem(a: unknown, where: string): string | null {
  if (!a || typeof a !== 'object') return `${where} must be an object { filename, contentType, source: { kind, ref } }`;
  const { filename, contentType, source } = a as Partial<AttachmentSpec>;
  const fn = filenameProblem(filename);
  if (fn) return `${where}.filename ${fn}`;
  if (typeof contentType !== 'string' || !CONTENT_TYPE.test(contentType)) return `${where}.contentType must be a MIME type such as application/pdf (no parameters)`;
  if (!source || typeof source !== 'object') return `${where}.source must be { kind, ref }`;
  if (typeof source.kind !== 'string' || !ATTACHMENT_SOURCE_KIND.test(source.kind)) {
    return `${where}.source.kind must be a source kind (lower case letters, digits, _ . -, starting with a letter, at most 64)`;
  }
  if (typeof source.ref !== 'string' || !source.ref || source.ref.length > MAX_REF_LENGTH || CONTROL.test(source.ref)) {
    return `${where}.source.ref must be a non-empty string of at most ${MAX_REF_LENGTH} characters without control characters`;
  }
  return null;
}

function filenameProblem(name: unknown): string | null {
  if (typeof name !== 'string' || !name.trim()) return 'must be a non-empty string';
  if (name.length > MAX_ATTACHMENT_FILENAME_LENGTH) return `must be at most ${MAX_ATTACHMENT_FILENAME_LENGTH} characters`;
  if (/[\r\n]/.test(name) || CONTROL.test(name)) return 'must not contain line breaks or control characters';
  if (/[/\\]/.test(name)) return 'must not contain a path separator (/ or \\)';
  if (name === '.' || name === '..') return 'must be a file name';
  return null;
}

export function toStoredAttachment(a: AttachmentSpec): StoredAttachment {
  return { filename: a.filename, content_type: a.contentType.toLowerCase(), source: { kind: a.source.kind, ref: a.source.ref } };
}

// ---------------------------------------------------------------- resolution (at send time)

export type AttachmentFailure = {
  ok: false;
  code: 'attachment_source_unknown' | 'attachment_failed' | 'attachments_too_large' | 'invalid_message';
  message: string;
  /** The same message would meet the same failure on every attempt. */
  permanent: boolean;
  /** For the log line only: what the source threw (its class name and code, never its text). */
  cause?: { name: string; code?: string };
};

/**
 * Produces the bytes of every attachment of a message, in order, within `timeoutMs` altogether.
 * Every kind is checked before any source runs, so a message that can never be sent is told so at
 * once rather than after a transient failure of another attachment.
 */
export async function resolveAttachments(
  deps: Deps,
  stored: unknown[],
  ctx: { locationId: string; emailId: string; timeoutMs: number },
): Promise<{ ok: true; attachments: ResolvedAttachment[] } | AttachmentFailure> {
  const n = stored.length;
  const label = (i: number) => `Attachment ${i + 1} of ${n}`;
  const list: StoredAttachment[] = [];
  for (const [i, raw] of stored.entries()) {
    const a = raw as StoredAttachment;
    const spec = a && typeof a === 'object' ? { filename: a.filename, contentType: a.content_type, source: a.source } : a;
    if (attachmentProblem(spec, 'attachment')) {
      return { ok: false, code: 'invalid_message', message: `${label(i)} is not a valid attachment record: the message can not be sent`, permanent: true };
    }
    list.push(a);
  }
  for (const [i, a] of list.entries()) {
    if (!sources.has(a.source.kind)) {
      return {
        ok: false,
        code: 'attachment_source_unknown',
        message: `${label(i)} comes from the source "${a.source.kind}", which this server does not have: the message can not be sent`,
        permanent: true,
      };
    }
  }

  const controller = new AbortController();
  const deadline = Date.now() + ctx.timeoutMs; // network-like time, not a rule of the domain
  const out: ResolvedAttachment[] = [];
  let total = 0;
  try {
    for (const [i, a] of list.entries()) {
      const source = sources.get(a.source.kind)!;
      const left = deadline - Date.now();
      let timer: NodeJS.Timeout | undefined;
      let bytes: unknown;
      try {
        if (left <= 0) throw Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' });
        const producing = Promise.resolve().then(() => source(deps, a.source.ref, { locationId: ctx.locationId, emailId: ctx.emailId, signal: controller.signal }));
        producing.catch(() => undefined); // settled below, or abandoned after the timeout
        const overall = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT', timedOut: true })), left);
        });
        bytes = await Promise.race([producing, overall]);
      } catch (err) {
        const e = (err && typeof err === 'object' ? err : {}) as { name?: unknown; code?: unknown; timedOut?: unknown };
        const timedOut = e.timedOut === true || left <= 0;
        return {
          ok: false,
          code: 'attachment_failed',
          message: timedOut
            ? `${label(i)} took too long to produce (source "${a.source.kind}")`
            : `${label(i)} could not be produced by its source "${a.source.kind}"`,
          permanent: false,
          cause: { name: typeof e.name === 'string' ? e.name : typeof err, ...(typeof e.code === 'string' ? { code: e.code } : {}) },
        };
      } finally {
        clearTimeout(timer);
      }
      if (!(bytes instanceof Uint8Array) || bytes.length === 0) {
        return { ok: false, code: 'attachment_failed', message: `${label(i)} was not produced: its source "${a.source.kind}" returned no bytes`, permanent: false };
      }
      total += bytes.length;
      if (total > MAX_ATTACHMENTS_BYTES) {
        return {
          ok: false,
          code: 'attachments_too_large',
          message: `The attachments come to more than ${MAX_ATTACHMENTS_BYTES / (1024 * 1024)} MiB: too large to send`,
          permanent: true,
        };
      }
      out.push({ filename: a.filename, contentType: a.content_type, content: Buffer.from(bytes) }); // a copy: the source may reuse its buffer
    }
  } finally {
    controller.abort();
  }
  return { ok: true, attachments: out };
}
