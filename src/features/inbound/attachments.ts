import type { Attachment, ParsedMail } from 'mailparser';
import { DEFAULTS as STATEMENT_LIMITS } from '../statements/analyze';
import { extractLines, type ExtractFailure, type ExtractLimits, type Run } from '../statements/extract';

// The text of a lender reply's PDF attachments (offer letters, term sheets), read with the same
// bounds as a bank statement: each file in a child process (src/features/statements/extract.ts)
// with its page, time, heap, memory and decoded-bytes limits. On top of those, per message: at most
// `maxPdfs` PDFs (the first ones, in message order, forwarded messages included), each at most
// `maxBytes`, and one time budget for all of them. A PDF that cannot be read (password, damage, a
// bomb, a scan, past a limit) is skipped and said so in `notes`; nothing here throws for anything in
// the message. The text is evidence for the classifier (offer terms) and the matcher (trace codes);
// it is neither stored nor logged.

export interface AttachmentLimits extends ExtractLimits {
  /** PDFs read per message (the first ones; the rest are noted, not read). */
  maxPdfs: number;
  /** Largest PDF read (bytes): the inbound size limit, as a statement's. */
  maxBytes: number;
  /** Wall-clock budget for all of a message's PDFs together (ms); each reading gets what is left. */
  totalMs: number;
  /** Text kept from all PDFs together (characters). */
  maxTextChars: number;
  /** message/rfc822 parts opened to find PDFs (forwards), and how deep. */
  maxNestedMessages: number;
  maxDepth: number;
}

/** A reading may not start with less than this left of the budget (a reader process takes ~100 ms to start). */
const MIN_READING_MS = 250;

export const ATTACHMENT_DEFAULTS: AttachmentLimits = {
  maxPages: STATEMENT_LIMITS.maxPages,
  timeoutMs: STATEMENT_LIMITS.timeoutMs,
  maxHeapMb: STATEMENT_LIMITS.maxHeapMb,
  maxMemoryMb: STATEMENT_LIMITS.maxMemoryMb,
  maxDecodedBytes: STATEMENT_LIMITS.maxDecodedBytes,
  maxBytes: STATEMENT_LIMITS.maxBytes, // 25 MB, INBOUND_MAX_BYTES (a unit test holds them equal)
  maxPdfs: 5,
  totalMs: 15_000, // a hostile PDF (a bomb) costs at most this per message, well within an inbound hook's patience
  maxTextChars: 50_000,
  maxNestedMessages: 5,
  maxDepth: 2,
};

export type SkipCode = ExtractFailure | 'not_pdf' | 'empty' | 'too_large' | 'no_text_layer' | 'over_count' | 'out_of_time';

export interface AttachmentReading {
  /** The text of the PDFs read, one after the other (a blank line between files): for trace codes. */
  text: string;
  /** The same without our own submission packages (a lender attaching ours back): for offer terms. */
  offerText: string;
  read: { name: string; pages: number }[];
  skipped: { name: string; code: SkipCode }[];
  /** One line per PDF for a reviewer (the classification's reasons); never the content. */
  notes: string[];
  /**
   * Per PDF read (the message's own attachment objects, forwarded ones included): the start of its
   * text, and whether it is our own submission package. For filing the attachment as a document
   * (src/features/inbound/email-documents.ts: is it a bank statement), never stored.
   */
  files: Map<Attachment, { text: string; ownPackage: boolean }>;
}

const WHY: Record<SkipCode, string> = {
  encrypted: 'password protected',
  unreadable: 'damaged or unreadable',
  too_many_pages: 'too many pages',
  timeout: 'reading took too long',
  too_complex: 'too complex to read',
  resource_limit: 'needs more memory than a reading may use',
  not_pdf: 'not a PDF',
  empty: 'empty',
  too_large: 'larger than the inbound size limit',
  no_text_layer: 'no text layer (a scan)',
  over_count: 'past the number of PDFs read per message',
  out_of_time: 'the time budget for attachments was spent',
};

export const EMPTY_READING: AttachmentReading = { text: '', offerText: '', read: [], skipped: [], notes: [], files: new Map() };
/** Text kept per PDF for filing it (the first pages name its kind). */
const FILE_TEXT_CHARS = 20_000;

/** The first page of a submission package this service sent (src/features/submissions/package.ts). */
const OWN_PACKAGE = /^DEAL SUBMISSION\n[\s\S]{0,4000}?Please quote reference SVC-[0-9A-Z]{4}-[0-9A-Z]{4} in every reply about this deal\./;

const isPdf = (a: Attachment) => /^application\/(x-)?pdf$/i.test(a.contentType ?? '') || /\.pdf$/i.test(a.filename ?? '');
const isMessage = (a: Attachment) => /^message\/rfc822$/i.test(a.contentType ?? '');
/** A file name fit for a reviewer's note: printable, short. */
const nameOf = (a: Attachment) => (a.filename ?? 'unnamed').replace(/[\p{C}"]/gu, '').slice(0, 80) || 'unnamed';

/** The message's PDF attachments in order, those of attached (forwarded) messages in their place. */
async function pdfsOf(parsed: ParsedMail, o: AttachmentLimits): Promise<Attachment[]> {
  const out: Attachment[] = [];
  let opened = 0;
  const walk = async (list: Attachment[], depth: number) => {
    for (const a of list) {
      if (isPdf(a)) out.push(a);
      else if (isMessage(a) && depth < o.maxDepth && opened < o.maxNestedMessages && Buffer.isBuffer(a.content)) {
        opened++;
        try {
          const { simpleParser } = await import('mailparser'); // loaded already: this reads a parsed email
          const inner = await simpleParser(a.content, { skipImageLinks: true, skipTextToHtml: true, skipTextLinks: true, skipHtmlToText: true });
          await walk(inner.attachments, depth + 1);
        } catch {
          // not a message after all: nothing in it is read
        }
      }
    }
  };
  await walk(parsed.attachments, 0);
  return out;
}

/** One line's runs as text: a wide gap becomes a tab (a table cell), a small one a space. */
function lineText(runs: Run[]): string {
  let s = '';
  let end: number | null = null;
  for (const r of runs) {
    if (end !== null) {
      const gap = r.x - end;
      if (gap > 12) s += '\t';
      else if (gap > 1 && !/\s$/.test(s) && !/^\s/.test(r.text)) s += ' ';
    }
    s += r.text;
    end = r.x + r.w;
  }
  return s.replace(/[ ]{2,}/g, ' ').trim();
}

export function pagesText(lines: Run[][][]): string {
  return lines.map((page) => page.map(lineText).filter(Boolean).join('\n')).join('\n');
}

/**
 * Reads the text of `parsed`'s PDF attachments within `limits`. `now` is the wall clock the budget
 * is kept on (a resource limit, like the readers' own timeouts, not a rule of the domain).
 */
export async function readPdfAttachments(parsed: ParsedMail, limits: Partial<AttachmentLimits> = {}, now: () => number = Date.now): Promise<AttachmentReading> {
  const o: AttachmentLimits = { ...ATTACHMENT_DEFAULTS, ...limits };
  const started = now();
  const reading: AttachmentReading = { text: '', offerText: '', read: [], skipped: [], notes: [], files: new Map() };
  const texts: string[] = [];
  const offerTexts: string[] = [];
  let chars = 0;
  const skip = (name: string, code: SkipCode) => {
    reading.skipped.push({ name, code });
    reading.notes.push(`attachment "${name}" not read: ${WHY[code]}`);
  };
  let pdfs: Attachment[];
  try {
    pdfs = await pdfsOf(parsed, o);
  } catch {
    return reading;
  }
  for (const [i, a] of pdfs.entries()) {
    const name = nameOf(a);
    if (i >= o.maxPdfs) {
      reading.skipped.push({ name, code: 'over_count' });
      continue;
    }
    const bytes = Buffer.isBuffer(a.content) ? a.content : Buffer.alloc(0);
    if (!bytes.length) {
      skip(name, 'empty');
      continue;
    }
    if (bytes.length > o.maxBytes) {
      skip(name, 'too_large');
      continue;
    }
    if (!bytes.subarray(0, 1024).includes('%PDF-')) {
      skip(name, 'not_pdf');
      continue;
    }
    const left = o.totalMs - (now() - started);
    if (left < MIN_READING_MS) {
      skip(name, 'out_of_time');
      continue;
    }
    const x = await extractLines(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
      maxPages: o.maxPages, timeoutMs: Math.min(o.timeoutMs, left), maxHeapMb: o.maxHeapMb, maxMemoryMb: o.maxMemoryMb, maxDecodedBytes: o.maxDecodedBytes,
    });
    if (!x.ok) {
      skip(name, x.code);
      continue;
    }
    const text = pagesText(x.lines);
    if (text.replace(/\s/g, '').length < 20) {
      skip(name, 'no_text_layer');
      continue;
    }
    const kept = text.slice(0, Math.max(0, o.maxTextChars - chars));
    chars += kept.length;
    texts.push(kept);
    const ours = OWN_PACKAGE.test(text);
    reading.files.set(a, { text: text.slice(0, FILE_TEXT_CHARS), ownPackage: ours });
    if (!ours) offerTexts.push(kept);
    reading.read.push({ name, pages: x.pages });
    reading.notes.push(`attachment "${name}" read (${x.pages} page${x.pages === 1 ? '' : 's'})${ours ? ': our own submission package, read for its trace code only' : ''}`);
  }
  if (pdfs.length > o.maxPdfs) reading.notes.push(`${pdfs.length - o.maxPdfs} more PDF attachment(s) not read: only the first ${o.maxPdfs} of a message are`);
  reading.text = texts.join('\n\n');
  reading.offerText = offerTexts.join('\n\n');
  return reading;
}
