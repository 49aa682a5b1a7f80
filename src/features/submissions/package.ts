// The submission package: the one PDF attached to a lender email. A deal summary page, then every
// page of each chosen document (PDFs page by page, PNG/JPEG images one per page), with the
// submission's trace code stamped on every page and in the PDF metadata (Keywords).
//
// Rules kept here:
// - Only allow-listed fields reach the page. Owners are shown by name, role and ownership share;
//   SSN, date of birth, credit score and personal contact details are never read from the input.
// - Text is drawn with the standard Helvetica fonts (WinAnsi). Anything they cannot encode (emoji,
//   CJK, other scripts) is transliterated when Unicode decomposition allows (é stays é, ŵ becomes w)
//   and otherwise replaced with '?', never thrown. Every value is wrapped and truncated to its slot.
// - Document pages are never drawn over: the stamp goes on a strip added below the page's visible
//   area (on the edge that is the bottom as the page is displayed, whatever its /Rotate).
// - Input is refused with a SubmissionPackageError naming the file, never a crash: anything but PDF,
//   PNG or JPEG (sniffed from the bytes, not the name); a PDF that cannot be parsed, has no pages or
//   is encrypted; an image that cannot be decoded or is too large to decode; a package over
//   MAX_PACKAGE_BYTES.
// - Output is deterministic for a given input: metadata dates come from `generatedAt`, pdf-lib's
//   resource names come from its seeded generator, and nothing else varies.
import {
  ParseSpeeds,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFRef,
  PDFStream,
  PDFString,
  type PDFObject,
  StandardFonts,
  concatTransformationMatrix,
  degrees,
  drawObject,
  popGraphicsState,
  pushGraphicsState,
  rgb,
  type PDFFont,
  type PDFImage,
  type PDFPage,
} from 'pdf-lib';
import { isTraceCode } from './trace-code';

/** Largest package we build: 20 MiB of PDF (about 27 MiB once base64-encoded into the email). */
export const MAX_PACKAGE_BYTES = 20 * 1024 * 1024;

/** Largest PNG we decode (PNGs are decoded to raw pixels to be embedded; JPEGs are embedded as they are). */
export const MAX_PNG_PIXELS = 30_000_000;

/**
 * Pages one document may bring (a 12-month statement set is well under 100), and pages in a whole
 * package. A document over its cap, or a package over its cap, is refused like any document that
 * cannot be packaged (the error names the file): 25,000 empty pages cost 3 MB of PDF and 25 s of
 * copying and stamping.
 */
export const MAX_DOCUMENT_PAGES = 500;
export const MAX_PACKAGE_PAGES = 2000;

export const PACKAGE_CREATOR = 'Svc submissions';
export const PACKAGE_PRODUCER = 'Svc submission package 1.0 (pdf-lib 1.17)';

// ---------------------------------------------------------------------------------------------
// Input

/** The business, as in the Business schema (snake_case, so a mapped row can be passed as it is). */
export interface PackageBusiness {
  legal_name: string;
  dba?: string | null;
  entity_type?: string | null;
  industry?: string | null;
  ein?: string | null;
  address?: string | null;
  city?: string | null;
  state?: string | null;
  zip?: string | null;
  phone?: string | null;
  business_start_date?: string | null;
}

/** The funding request, as in the Deal schema. */
export interface PackageDeal {
  requested_amount?: number | null;
  product_type?: string | null;
  use_of_funds?: string | null;
  desired_term_months?: number | null;
  desired_frequency?: string | null;
  annual_revenue?: number | null;
  /** Average monthly revenue when known (for example from statement analysis); else annual / 12 is shown. */
  monthly_revenue?: number | null;
  state_incorporated?: string | null;
}

/**
 * An owner, as in a business's `people` include. Only these fields are read: a Person object with
 * `dob`, `ssn_masked`, `credit_score`, address or contact fields can be passed and none of them is
 * printed.
 */
export interface PackageOwner {
  full_name?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  role?: string | null;
  ownership_percent?: number | null;
}

export interface PackageDocument {
  /** File name as uploaded; shown in the summary and in each page's stamp. */
  filename: string;
  content: Uint8Array;
  /** Document category (bank_statement, application, ...), shown in the summary when given. */
  category?: string | null;
}

export interface SubmissionPackageInput {
  traceCode: string;
  generatedAt: Date;
  location: { name: string };
  /** The lender the package is for; printed as "Prepared for" when given. */
  lender?: { name: string } | null;
  business: PackageBusiness;
  deal: PackageDeal;
  owners: PackageOwner[];
  documents: PackageDocument[];
}

export type SubmissionPackageErrorCode =
  | 'invalid_input'
  | 'unsupported_document'
  | 'corrupt_document'
  | 'encrypted_document'
  | 'image_too_large'
  | 'too_many_pages'
  | 'package_too_large'
  | 'build_failed';

/** Why a package cannot be built. `filename` (and `documentIndex`) name the document at fault, if any. */
export class SubmissionPackageError extends Error {
  override readonly name = 'SubmissionPackageError';
  constructor(
    readonly code: SubmissionPackageErrorCode,
    message: string,
    readonly filename: string | null = null,
    readonly documentIndex: number | null = null,
  ) {
    super(message);
  }
}

// ---------------------------------------------------------------------------------------------
// Layout constants (points; US Letter)

const LETTER: [number, number] = [612, 792];
const MARGIN = 54;
const FOOTER_STRIP = 18; // height of the stamp strip added below every document page
const OWN_FOOTER = 36; // space kept free at the bottom of the pages we lay out, for the stamp
const FOOTER_SIZE = 8;
const INK = rgb(0.1, 0.1, 0.12);
const MUTED = rgb(0.42, 0.44, 0.48);
const RULE = rgb(0.8, 0.82, 0.85);
const BAND = rgb(0.95, 0.96, 0.97);
const WHITE = rgb(1, 1, 1);

// pdf-lib yields to the event loop (a setTimeout, 1 ms or more) every N objects while parsing and
// writing; the defaults (100 and 50) add tens of ms to a PDF of a few thousand objects. These still
// yield every few ms of work, so a package never blocks the worker's event loop for long.
const PARSE_SPEED = ParseSpeeds.Fast;
const OBJECTS_PER_TICK = 1000;

// ---------------------------------------------------------------------------------------------
// Text: encode what Helvetica can, replace the rest, wrap and truncate

type Fonts = { regular: PDFFont; bold: PDFFont; charset: Set<number> };

const MAX_FIELD_CHARS = 2000; // enough for any slot on the page; bounds the wrapping work

/** Text the standard fonts can encode: one line, controls to spaces, unencodable characters to '?'. */
export function toWinAnsi(text: string, charset: Set<number>): string {
  let out = '';
  for (const ch of String(text ?? '').slice(0, MAX_FIELD_CHARS * 2).normalize('NFC')) {
    const cp = ch.codePointAt(0)!;
    if (/[\s\p{Cc}]/u.test(ch)) {
      out += ' ';
    } else if (/[\p{Cf}\p{M}]/u.test(ch)) {
      // zero-width joiners, variation selectors, marks that did not compose: nothing to draw
    } else if (charset.has(cp)) {
      out += ch;
    } else {
      // Keep what decomposition can express (ŵ -> w, ﬁ -> fi); else mark the gap once.
      const base = [...ch.normalize('NFKD')].filter((c) => !/\p{M}/u.test(c) && charset.has(c.codePointAt(0)!)).join('');
      out += base || '?';
    }
  }
  return out.replace(/\?{2,}/g, '?').replace(/\s+/g, ' ').trim().slice(0, MAX_FIELD_CHARS);
}

/**
 * Wraps `text` (already WinAnsi-safe) into at most `maxLines` lines of `maxWidth`, breaking long
 * words; when it does not fit, the last line ends with an ellipsis.
 */
function wrap(font: PDFFont, size: number, text: string, maxWidth: number, maxLines: number): string[] {
  const width = (s: string) => font.widthOfTextAtSize(s, size);
  const words = text.split(' ').filter(Boolean);
  const lines: string[] = [];
  let current = '';
  let i = 0;
  while (i < words.length && lines.length < maxLines) {
    const word = words[i];
    const candidate = current ? `${current} ${word}` : word;
    if (width(candidate) <= maxWidth) {
      current = candidate;
      i++;
      continue;
    }
    if (current) {
      lines.push(current);
      current = '';
      continue;
    }
    // A single word wider than the line: cut it where it stops fitting.
    let cut = 1;
    while (cut < word.length && width(word.slice(0, cut + 1)) <= maxWidth) cut++;
    lines.push(word.slice(0, cut));
    words[i] = word.slice(cut);
  }
  if (current) lines.push(current); // only reached with room left: lines fill up only after current is flushed
  const truncated = i < words.length;
  if (truncated && lines.length > 0) {
    let last = lines[lines.length - 1];
    while (last.length > 0 && width(`${last}…`) > maxWidth) last = last.slice(0, -1);
    lines[lines.length - 1] = `${last.trimEnd()}…`;
  }
  return lines;
}

/** One line: `text` cut with an ellipsis to fit `maxWidth`. */
function fit(font: PDFFont, size: number, text: string, maxWidth: number): string {
  return wrap(font, size, text, maxWidth, 1)[0] ?? '';
}

// ---------------------------------------------------------------------------------------------
// Formatting

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DASH = '—';

function present(v: unknown): v is string | number {
  return (typeof v === 'string' && v.trim() !== '') || (typeof v === 'number' && Number.isFinite(v));
}

function money(v: number | null | undefined): string {
  if (typeof v !== 'number' || !Number.isFinite(v)) return DASH;
  const [whole, cents] = Math.abs(v).toFixed(2).split('.');
  return `${v < 0 ? '-' : ''}$${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${cents}`;
}

function utcStamp(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
}

function humanize(v: string): string {
  const s = v.replace(/_+/g, ' ').trim();
  return s.charAt(0).toUpperCase() + s.slice(1);
}

const PRODUCTS: Record<string, string> = {
  mca: 'Merchant cash advance',
  loc: 'Line of credit',
  term_loan: 'Term loan',
  equipment: 'Equipment financing',
  sba: 'SBA loan',
};

const ENTITY_TYPES: Record<string, string> = {
  llc: 'LLC',
  corporation: 'Corporation',
  c_corp: 'C corporation',
  s_corp: 'S corporation',
  partnership: 'Partnership',
  sole_proprietorship: 'Sole proprietorship',
  nonprofit: 'Nonprofit',
};

const CATEGORIES: Record<string, string> = {
  bank_statement: 'Bank statement',
  application: 'Application',
  id: 'Photo ID',
  voided_check: 'Voided check',
  tax_return: 'Tax return',
  contract: 'Contract',
  other: 'Other',
};

function product(v: string | null | undefined): string {
  if (!present(v)) return DASH;
  return PRODUCTS[v] ?? humanize(v);
}

function entityType(v: string | null | undefined): string {
  if (!present(v)) return DASH;
  return ENTITY_TYPES[v] ?? humanize(v);
}

function phone(v: string | null | undefined): string {
  if (!present(v)) return DASH;
  const digits = v.replace(/\D/g, '');
  if (/^1\d{10}$/.test(digits)) return `(${digits.slice(1, 4)}) ${digits.slice(4, 7)}-${digits.slice(7)}`;
  return digits.length >= 7 ? `+${digits}` : v;
}

function term(deal: PackageDeal): string {
  const parts: string[] = [];
  if (typeof deal.desired_term_months === 'number' && Number.isFinite(deal.desired_term_months)) {
    parts.push(`${deal.desired_term_months} month${deal.desired_term_months === 1 ? '' : 's'}`);
  }
  if (present(deal.desired_frequency)) parts.push(`${deal.desired_frequency} payments`);
  return parts.length ? parts.join(', ') : DASH;
}

function shortTerm(deal: PackageDeal): string {
  const parts: string[] = [];
  if (typeof deal.desired_term_months === 'number' && Number.isFinite(deal.desired_term_months)) parts.push(`${deal.desired_term_months} mo`);
  if (present(deal.desired_frequency)) parts.push(deal.desired_frequency);
  return parts.length ? parts.join(', ') : DASH;
}

/** "10 years 7 months (since Apr 2016)", from a YYYY-MM-DD start date, as of `asOf` (UTC). */
function timeInBusiness(start: string | null | undefined, asOf: Date): string {
  if (!present(start)) return DASH;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(start);
  if (!m) return start;
  const [sy, sm, sd] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (sm < 1 || sm > 12) return start;
  const since = `${MONTHS[sm - 1]} ${sy}`;
  let months = (asOf.getUTCFullYear() - sy) * 12 + (asOf.getUTCMonth() + 1 - sm) - (asOf.getUTCDate() < sd ? 1 : 0);
  if (months < 0) return `Starts ${start}`;
  const years = Math.floor(months / 12);
  months %= 12;
  const parts = [];
  if (years) parts.push(`${years} year${years === 1 ? '' : 's'}`);
  if (months || !years) parts.push(`${months} month${months === 1 ? '' : 's'}`);
  return `${parts.join(' ')} (since ${since})`;
}

function percent(v: number | null | undefined): string {
  if (typeof v !== 'number' || !Number.isFinite(v)) return DASH;
  return `${Number(v.toFixed(2))}%`;
}

function ownerName(o: PackageOwner): string {
  if (present(o.full_name)) return o.full_name;
  const name = [o.first_name, o.last_name].filter(present).join(' ');
  return name || 'Unnamed owner';
}

function address(b: PackageBusiness): string {
  const cityLine = [b.city, [b.state, b.zip].filter(present).join(' ')].filter(present).join(', ');
  const all = [b.address, cityLine].filter(present).join(', ');
  return all || DASH;
}

// ---------------------------------------------------------------------------------------------
// Documents: sniff, load, measure

type LoadedDoc =
  | { kind: 'pdf'; filename: string; index: number; category?: string | null; src: PDFDocument; pages: number }
  | {
      kind: 'png' | 'jpeg';
      filename: string;
      index: number;
      category?: string | null;
      bytes: Uint8Array;
      width: number;
      height: number;
      orientation: number;
      pages: 1;
    };

function startsWith(bytes: Uint8Array, sig: number[]): boolean {
  return bytes.length >= sig.length && sig.every((b, i) => bytes[i] === b);
}

function sniff(bytes: Uint8Array): 'pdf' | 'png' | 'jpeg' | null {
  // PDF readers accept junk before the header within the first 1 KB.
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 1024)).toString('latin1');
  if (head.includes('%PDF-')) return 'pdf';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  return null;
}

function pngSize(bytes: Uint8Array): { width: number; height: number } | null {
  if (bytes.length < 24) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (String.fromCharCode(bytes[12], bytes[13], bytes[14], bytes[15]) !== 'IHDR') return null;
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/** Size and EXIF orientation (1-8) of a JPEG, read from its markers; null when no frame header is found. */
function jpegInfo(bytes: Uint8Array): { width: number; height: number; orientation: number } | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let orientation = 1;
  let i = 2;
  while (i + 4 <= bytes.length) {
    if (bytes[i] !== 0xff) return null;
    const marker = bytes[i + 1];
    if (marker === 0xff) {
      i++; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end of image or scan data before a frame header
    const length = view.getUint16(i + 2);
    if (length < 2 || i + 2 + length > bytes.length) return null;
    if (marker === 0xe1 && length >= 16) orientation = exifOrientation(view, i + 4, length - 2) ?? orientation;
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame && length >= 7) {
      return { height: view.getUint16(i + 5), width: view.getUint16(i + 7), orientation };
    }
    i += 2 + length;
  }
  return null;
}

function exifOrientation(view: DataView, start: number, length: number): number | null {
  const end = start + length;
  const sig = [0x45, 0x78, 0x69, 0x66, 0, 0]; // "Exif\0\0"
  if (!sig.every((b, k) => view.getUint8(start + k) === b)) return null;
  const tiff = start + 6;
  if (tiff + 8 > end) return null;
  const order = view.getUint16(tiff);
  if (order !== 0x4949 && order !== 0x4d4d) return null;
  const le = order === 0x4949;
  const ifd = tiff + view.getUint32(tiff + 4, le);
  if (ifd + 2 > end) return null;
  const count = view.getUint16(ifd, le);
  for (let k = 0; k < count; k++) {
    const entry = ifd + 2 + k * 12;
    if (entry + 12 > end) return null;
    if (view.getUint16(entry, le) === 0x0112) {
      const value = view.getUint16(entry + 8, le);
      return value >= 1 && value <= 8 ? value : null;
    }
  }
  return null;
}

async function loadDocument(doc: PackageDocument, index: number): Promise<LoadedDoc> {
  const filename = String(doc.filename ?? '').trim() || `document ${index + 1}`;
  const bytes = doc.content;
  const fail = (code: SubmissionPackageErrorCode, why: string): never => {
    throw new SubmissionPackageError(code, `Cannot add "${filename}" to the submission package: ${why}`, filename, index);
  };
  if (!(bytes instanceof Uint8Array) || bytes.length === 0) return fail('corrupt_document', 'the file is empty.');
  const kind = sniff(bytes);
  if (kind === null) {
    return fail('unsupported_document', 'it is not a PDF, PNG or JPEG file (only these can go into a package).');
  }
  const base = { filename, index, category: doc.category };
  if (kind === 'pdf') {
    let src: PDFDocument;
    try {
      // Encryption is checked on the parsed document: pdf-lib's EncryptedPDFError is compiled to ES5
      // and fails `instanceof`.
      src = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false, parseSpeed: PARSE_SPEED });
    } catch {
      return fail('corrupt_document', 'the PDF is damaged and cannot be read.');
    }
    if (src.isEncrypted) {
      // pdf-lib cannot decrypt: copied pages would carry ciphertext. Applies to owner-password-only
      // ("no printing") statements too.
      return fail('encrypted_document', 'the PDF is encrypted or password-protected; upload an unprotected copy.');
    }
    let pages = 0;
    try {
      pages = src.getPageCount();
    } catch {
      return fail('corrupt_document', 'the PDF is damaged and cannot be read.');
    }
    if (pages === 0) return fail('corrupt_document', 'the PDF has no readable pages.');
    if (pages > MAX_DOCUMENT_PAGES) return fail('too_many_pages', `the PDF has ${pages} pages; a document can have at most ${MAX_DOCUMENT_PAGES}.`);
    return { kind: 'pdf', ...base, src, pages };
  }
  if (kind === 'png') {
    const size = pngSize(bytes);
    if (!size || size.width === 0 || size.height === 0) return fail('corrupt_document', 'the PNG image is damaged.');
    if (size.width * size.height > MAX_PNG_PIXELS) {
      return fail('image_too_large', `the PNG image is ${size.width} x ${size.height} pixels; at most ${MAX_PNG_PIXELS / 1e6} megapixels can be packaged.`);
    }
    return { kind: 'png', ...base, bytes, ...size, orientation: 1, pages: 1 };
  }
  const info = jpegInfo(bytes);
  if (!info || info.width === 0 || info.height === 0) return fail('corrupt_document', 'the JPEG image is damaged.');
  return { kind: 'jpeg', ...base, bytes, ...info, pages: 1 };
}

// ---------------------------------------------------------------------------------------------
// The stamp

type Box = { x: number; y: number; width: number; height: number };

function intersect(a: Box, b: Box): Box {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const width = Math.min(a.x + a.width, b.x + b.width) - x;
  const height = Math.min(a.y + a.height, b.y + b.height) - y;
  return width > 0 && height > 0 ? { x, y, width, height } : b;
}

function union(a: Box, b: Box): Box {
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return { x, y, width: Math.max(a.x + a.width, b.x + b.width) - x, height: Math.max(a.y + a.height, b.y + b.height) - y };
}

function normalBox(b: Box): Box {
  // Boxes may be written with their corners in any order.
  const x = Math.min(b.x, b.x + b.width);
  const y = Math.min(b.y, b.y + b.height);
  return { x, y, width: Math.abs(b.width), height: Math.abs(b.height) };
}

function pageRotation(page: PDFPage): 0 | 90 | 180 | 270 {
  const angle = page.getRotation().angle;
  const r = ((Math.round(angle / 90) * 90) % 360 + 360) % 360;
  return r as 0 | 90 | 180 | 270;
}

/**
 * Draws the stamp strip along the displayed bottom edge of `box` (rotation as the page's /Rotate):
 * a white band `strip` high, `left` at its start and `right` at its end, reading left to right as
 * displayed. The left text (which carries the trace code) always fits: it shrinks, then falls back
 * to `fallback`, before it would be cut.
 */
function drawStamp(
  page: PDFPage,
  fonts: Fonts,
  box: Box,
  rotation: 0 | 90 | 180 | 270,
  geometry: { strip: number; pad: number; size: number },
  texts: { left: string; fallback: string; right: string },
) {
  const { strip, pad, size: fullSize } = geometry;
  const { left, fallback, right } = texts;
  const displayWidth = rotation % 180 === 0 ? box.width : box.height;
  const toPage = (u: number, v: number): { x: number; y: number } => {
    switch (rotation) {
      case 90:
        return { x: box.x + box.width - v, y: box.y + u };
      case 180:
        return { x: box.x + box.width - u, y: box.y + box.height - v };
      case 270:
        return { x: box.x + v, y: box.y + box.height - u };
      default:
        return { x: box.x + u, y: box.y + v };
    }
  };
  const rotate = degrees(rotation);
  const origin = toPage(0, 0);
  page.drawRectangle({ ...origin, width: displayWidth, height: strip, color: WHITE, rotate });

  const available = Math.max(displayWidth - 2 * pad, 1);
  let text = left;
  let size = fullSize;
  const widthAt = (s: string, font: PDFFont, sz: number) => font.widthOfTextAtSize(s, sz);
  if (widthAt(text, fonts.bold, size) > available) {
    size = Math.max(available / widthAt(text, fonts.bold, 1), 4);
    if (widthAt(text, fonts.bold, size) > available) {
      text = fallback;
      size = Math.min(fullSize, available / widthAt(text, fonts.bold, 1));
    }
  }
  const baseline = (strip - size * 0.7) / 2;
  page.drawText(text, { ...toPage(pad, baseline), size, font: fonts.bold, color: INK, rotate });

  const used = pad + widthAt(text, fonts.bold, size) + 1.5 * fullSize;
  const room = displayWidth - used - pad;
  if (right && room > 5 * fullSize) {
    const shown = fit(fonts.regular, size, right, room);
    const w = widthAt(shown, fonts.regular, size);
    page.drawText(shown, { ...toPage(displayWidth - pad - w, baseline), size, font: fonts.regular, color: MUTED, rotate });
  }
}

function stampText(code: string, pageNo: number, total: number, right: string) {
  return { left: `Ref ${code} · page ${pageNo} of ${total}`, fallback: code, right };
}

/** Stamps a page we laid out ourselves (upright, the bottom OWN_FOOTER kept free), within the margins. */
function stampOwnPage(page: PDFPage, fonts: Fonts, code: string, pageNo: number, total: number, right: string) {
  const { width, height } = page.getSize();
  const geometry = { strip: OWN_FOOTER, pad: MARGIN, size: FOOTER_SIZE };
  drawStamp(page, fonts, { x: 0, y: 0, width, height }, 0, geometry, stampText(code, pageNo, total, right));
}

/**
 * Stamps a page copied from a document: its visible area (CropBox within MediaBox) grows by a strip
 * on the displayed bottom edge, and the stamp goes on that strip, so nothing of the page is covered.
 */
function stampDocumentPage(page: PDFPage, fonts: Fonts, code: string, pageNo: number, total: number, right: string) {
  const media = normalBox(page.getMediaBox());
  const visible = intersect(normalBox(page.getCropBox()), media);
  const rotation = pageRotation(page);
  const displayWidth = rotation % 180 === 0 ? visible.width : visible.height;
  // Keep the stamp legible on pages far larger than Letter (viewers zoom them out).
  const strip = FOOTER_STRIP * Math.min(Math.max(displayWidth / LETTER[0], 1), 4);
  const grown = { ...visible };
  if (rotation === 0) {
    grown.y -= strip;
    grown.height += strip;
  } else if (rotation === 90) {
    grown.width += strip;
  } else if (rotation === 180) {
    grown.height += strip;
  } else {
    grown.x -= strip;
    grown.width += strip;
  }
  const newMedia = union(media, grown);
  page.setMediaBox(newMedia.x, newMedia.y, newMedia.width, newMedia.height);
  page.setCropBox(grown.x, grown.y, grown.width, grown.height);
  const k = strip / FOOTER_STRIP;
  const geometry = { strip, pad: 8 * k, size: FOOTER_SIZE * k };
  drawStamp(page, fonts, grown, rotation, geometry, stampText(code, pageNo, total, right));
}

/** Actions a package may keep: jumps inside it, viewer menu items, and web or mail links. */
const SAFE_ACTIONS = new Set(['GoTo', 'Named', 'URI']);
const SAFE_URI = /^(https?|mailto):/i;
const ACTION_KEYS = ['A', 'OpenAction', 'Next'].map((k) => PDFName.of(k));

function actionType(d: PDFDict): string | null {
  const s = d.get(PDFName.of('S'));
  return s instanceof PDFName ? s.decodeText() : null;
}

function isSafeAction(d: PDFDict): boolean {
  const type = actionType(d);
  if (!type || !SAFE_ACTIONS.has(type)) return false;
  if (type !== 'URI') return true;
  const uri = d.get(PDFName.of('URI'));
  // Leading spaces and control characters are ignored by viewers ("  javascript:...").
  const text = uri instanceof PDFString || uri instanceof PDFHexString ? uri.decodeText().replace(/^[\s\x00-\x1f]+/, '') : '';
  return SAFE_URI.test(text);
}

/**
 * Removes everything that could run from the package, on every object of the output (not only the
 * copied pages' own entries, so that no path is missed): additional actions (/AA on pages,
 * annotations and form fields), document-level scripts (a /JavaScript name tree), and every action
 * dictionary but a safe one (GoTo, Named, an http(s) or mailto URI), wherever it sits: an
 * annotation's or a field's /A, a /Next chain (one dictionary or an array, to any depth), a field's
 * /Parent or /Kids, an outline item, /OpenAction. An unsafe action is emptied where it is stored and
 * every reference to it (/A, /OpenAction, a /Next entry) is then dropped, so a safe action keeps
 * only the safe rest of its chain.
 */
export function stripActiveContent(doc: PDFDocument): void {
  const ctx = doc.context;
  const seen = new Set<PDFDict>();
  const all: PDFDict[] = [];
  const collect = (o: PDFObject | undefined): void => {
    if (o instanceof PDFStream) return collect(o.dict);
    if (o instanceof PDFArray) return o.asArray().forEach(collect);
    if (!(o instanceof PDFDict) || seen.has(o)) return;
    seen.add(o);
    all.push(o);
    for (const [, v] of o.entries()) collect(v);
  };
  for (const [, obj] of ctx.enumerateIndirectObjects()) collect(obj);
  // Pass 1: empty every unsafe action; drop additional actions and document scripts. An action is
  // what /A, /OpenAction or /Next holds (a dictionary with /S, or an array of them), or any
  // dictionary typed /Action or carrying a script (/JS); other dictionaries with /S (transparency
  // groups, soft masks, page labels, structure elements) are left alone.
  const actions = new Set<PDFDict>();
  const asDict = (o: PDFObject | undefined) => (o instanceof PDFRef ? ctx.lookup(o) : o);
  for (const d of all) {
    d.delete(PDFName.of('AA'));
    d.delete(PDFName.of('JavaScript'));
    if (d.get(PDFName.of('Type'))?.toString() === '/Action' || d.has(PDFName.of('JS'))) actions.add(d);
    for (const key of ACTION_KEYS) {
      const v = asDict(d.get(key));
      for (const e of v instanceof PDFArray ? v.asArray().map(asDict) : [v]) {
        if (e instanceof PDFDict && (e.has(PDFName.of('S')) || e.has(PDFName.of('JS')))) actions.add(e);
      }
    }
  }
  const emptied = new Set<PDFDict>();
  for (const a of actions) {
    if (isSafeAction(a)) continue;
    for (const key of a.keys()) a.delete(key);
    emptied.add(a);
  }
  // Pass 2: drop references to what was emptied.
  const gone = (o: PDFObject | undefined): boolean => {
    const r = asDict(o);
    return r instanceof PDFDict && emptied.has(r);
  };
  for (const d of all) {
    for (const key of ACTION_KEYS) {
      const v = d.get(key);
      if (v === undefined) continue;
      const resolved = v instanceof PDFRef ? ctx.lookup(v) : v;
      if (resolved instanceof PDFArray) {
        const keep = resolved.asArray().filter((e) => !gone(e));
        if (!keep.length) d.delete(key);
        else if (keep.length !== resolved.size()) d.set(key, ctx.obj(keep));
      } else if (gone(v)) {
        d.delete(key);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Image pages

/**
 * Draws an image on its own page, scaled to fit, turned upright as its EXIF orientation says. The
 * page is portrait or landscape to match the image.
 */
function addImagePage(out: PDFDocument, image: PDFImage, orientation: number): PDFPage {
  const swapped = orientation >= 5;
  const w = swapped ? image.height : image.width;
  const h = swapped ? image.width : image.height;
  const page = out.addPage(w > h ? [LETTER[1], LETTER[0]] : LETTER);
  const { width, height } = page.getSize();
  const areaW = width - 2 * 36;
  const areaH = height - 36 - OWN_FOOTER;
  const scale = Math.min(areaW / w, areaH / h, 3);
  const dw = w * scale;
  const dh = h * scale;
  const X = (width - dw) / 2;
  const Y = OWN_FOOTER + (areaH - dh) / 2;
  // Displayed (s, t) in the unit square from stored (u, v): s = s0 + su*u + sv*v, t = t0 + tu*u + tv*v.
  const maps: Record<number, [number, number, number, number, number, number]> = {
    1: [0, 1, 0, 0, 0, 1],
    2: [1, -1, 0, 0, 0, 1],
    3: [1, -1, 0, 1, 0, -1],
    4: [0, 1, 0, 1, 0, -1],
    5: [1, 0, -1, 1, -1, 0],
    6: [0, 0, 1, 1, -1, 0],
    7: [0, 0, 1, 0, 1, 0],
    8: [1, 0, -1, 0, 1, 0],
  };
  const [s0, su, sv, t0, tu, tv] = maps[orientation] ?? maps[1];
  const name = page.node.newXObject('Image', image.ref);
  page.pushOperators(
    pushGraphicsState(),
    concatTransformationMatrix(dw * su, dh * tu, dw * sv, dh * tv, X + dw * s0, Y + dh * t0),
    drawObject(name),
    popGraphicsState(),
  );
  return page;
}

// ---------------------------------------------------------------------------------------------
// The summary page

type DocRow = { filename: string; what: string; pages: string };

function drawSummary(page: PDFPage, fonts: Fonts, input: SubmissionPackageInput, docs: DocRow[]) {
  const safe = (s: string | number | null | undefined) => toWinAnsi(present(s) ? String(s) : DASH, fonts.charset);
  const { width, height } = page.getSize();
  const contentW = width - 2 * MARGIN;
  const bottom = OWN_FOOTER + 18; // nothing is drawn below this line
  let y = height - MARGIN;

  const line = (text: string, opts: { font?: PDFFont; size?: number; color?: ReturnType<typeof rgb>; x?: number; maxWidth?: number; maxLines?: number; leading?: number }) => {
    const font = opts.font ?? fonts.regular;
    const size = opts.size ?? 9.5;
    const leading = opts.leading ?? size * 1.3;
    const lines = wrap(font, size, text, opts.maxWidth ?? contentW, opts.maxLines ?? 1);
    for (const l of lines) {
      page.drawText(l, { x: opts.x ?? MARGIN, y: y - size, size, font, color: opts.color ?? INK });
      y -= leading;
    }
    return lines.length;
  };

  // Title block
  line('DEAL SUBMISSION', { font: fonts.bold, size: 9, color: MUTED, leading: 16 });
  line(safe(input.business.legal_name), { font: fonts.bold, size: 20, maxLines: 2, leading: 24 });
  if (present(input.business.dba) && input.business.dba.trim() !== input.business.legal_name?.trim()) {
    line(`DBA ${safe(input.business.dba)}`, { size: 11, color: MUTED, leading: 16 });
  }
  y -= 4;
  const prepared = [
    `Reference ${input.traceCode}`,
    `prepared ${utcStamp(input.generatedAt)} by ${safe(input.location?.name)}`,
    ...(input.lender && present(input.lender.name) ? [`for ${safe(input.lender.name)}`] : []),
  ].join(' · ');
  line(prepared, { size: 9.5, color: MUTED, maxLines: 2 });
  y -= 8;

  // Key figures band
  const bandH = 46;
  page.drawRectangle({ x: MARGIN, y: y - bandH, width: contentW, height: bandH, color: BAND });
  const figures: [string, string][] = [
    ['AMOUNT REQUESTED', money(input.deal.requested_amount)],
    ['PRODUCT', safe(product(input.deal.product_type))],
    ['TERM', safe(shortTerm(input.deal))],
  ];
  const colW = contentW / figures.length;
  figures.forEach(([label, value], k) => {
    const x = MARGIN + 12 + k * colW;
    page.drawText(label, { x, y: y - 16, size: 7.5, font: fonts.bold, color: MUTED });
    page.drawText(fit(fonts.bold, 13, value, colW - 20), { x, y: y - 34, size: 13, font: fonts.bold, color: INK });
  });
  y -= bandH + 16;

  const section = (title: string) => {
    page.drawText(title.toUpperCase(), { x: MARGIN, y: y - 9, size: 9, font: fonts.bold, color: MUTED });
    page.drawLine({ start: { x: MARGIN, y: y - 13 }, end: { x: MARGIN + contentW, y: y - 13 }, thickness: 0.6, color: RULE });
    y -= 22;
  };
  const labelW = 150;
  const field = (label: string, value: string, maxLines = 1) => {
    page.drawText(label, { x: MARGIN, y: y - 9.5, size: 9.5, font: fonts.regular, color: MUTED });
    line(value, { x: MARGIN + labelW, maxWidth: contentW - labelW, maxLines, leading: 13 });
  };

  const b = input.business;
  const d = input.deal;
  section('Business');
  field('Legal name', safe(b.legal_name), 2);
  field('DBA', safe(b.dba));
  field('Entity type', safe(entityType(b.entity_type)));
  field('State of incorporation', safe(d.state_incorporated));
  field('EIN', safe(b.ein));
  field('Industry', safe(b.industry), 2);
  field('Address', safe(address(b)), 2);
  field('Phone', safe(phone(b.phone)));
  field('Time in business', safe(timeInBusiness(b.business_start_date, input.generatedAt)));
  y -= 8;

  section('Funding request');
  field('Amount requested', money(d.requested_amount));
  field('Product', safe(product(d.product_type)));
  field('Use of funds', safe(d.use_of_funds), 3);
  field('Desired term', safe(term(d)));
  field('Annual revenue', money(d.annual_revenue));
  const monthly =
    typeof d.monthly_revenue === 'number' && Number.isFinite(d.monthly_revenue)
      ? money(d.monthly_revenue)
      : typeof d.annual_revenue === 'number' && Number.isFinite(d.annual_revenue)
        ? `${money(d.annual_revenue / 12)} (annual / 12)`
        : DASH;
  field('Monthly revenue', monthly);
  y -= 8;

  // Owners: name, role, share. Nothing else from the input is read.
  const owners = Array.isArray(input.owners) ? input.owners : [];
  section('Owners');
  const cols = [MARGIN, MARGIN + 250, MARGIN + 400];
  const row = (cells: string[], font: PDFFont, color = INK) => {
    const widths = [240, 140, contentW - 400];
    cells.forEach((c, k) => page.drawText(fit(font, 9.5, c, widths[k]), { x: cols[k], y: y - 9.5, size: 9.5, font, color }));
    y -= 13;
  };
  if (owners.length === 0) {
    row(['No owners on file', '', ''], fonts.regular, MUTED);
  } else {
    row(['Name', 'Role', 'Ownership'], fonts.bold, MUTED);
    const shown = owners.slice(0, owners.length > 5 ? 4 : 5);
    for (const o of shown) row([safe(ownerName(o)), safe(present(o.role) ? humanize(o.role) : DASH), percent(o.ownership_percent)], fonts.regular);
    if (owners.length > shown.length) row([`+ ${owners.length - shown.length} more owners`, '', ''], fonts.regular, MUTED);
  }
  y -= 8;

  // Documents, with where they are in this package; as many rows as the page holds.
  const note = `Please quote reference ${input.traceCode} in every reply about this deal.`;
  const noteH = 24;
  section('Documents enclosed');
  const docCols = [MARGIN, MARGIN + 260, MARGIN + 430];
  const docRow = (cells: string[], font: PDFFont, color = INK) => {
    const widths = [250, 160, contentW - 430];
    cells.forEach((c, k) => page.drawText(fit(font, 9.5, c, widths[k]), { x: docCols[k], y: y - 9.5, size: 9.5, font, color }));
    y -= 13;
  };
  if (docs.length === 0) {
    docRow(['No documents attached', '', ''], fonts.regular, MUTED);
  } else {
    docRow(['File', 'Type', 'Pages'], fonts.bold, MUTED);
    const capacity = Math.max(Math.floor((y - bottom - noteH) / 13), 1);
    const shown = docs.length > capacity ? docs.slice(0, capacity - 1) : docs;
    for (const r of shown) docRow([safe(r.filename), r.what, r.pages], fonts.regular);
    if (docs.length > shown.length) {
      const rest = docs.slice(shown.length);
      const first = rest[0].pages.split('–')[0];
      const last = rest[rest.length - 1].pages.split('–').pop();
      docRow([`+ ${rest.length} more documents`, '', `${first}–${last}`], fonts.regular, MUTED);
    }
  }

  page.drawText(note, { x: MARGIN, y: bottom - 4, size: 9, font: fonts.bold, color: INK });
}

// ---------------------------------------------------------------------------------------------
// The package

/**
 * Builds the submission package PDF. `options.maxBytes` (default MAX_PACKAGE_BYTES) caps its size.
 * Throws SubmissionPackageError (with the file named) for a
 * document that cannot be packaged and for a package over MAX_PACKAGE_BYTES; never anything else for
 * bad documents.
 */
export async function buildSubmissionPackage(
  input: SubmissionPackageInput,
  options: { maxBytes?: number } = {},
): Promise<Uint8Array> {
  const maxBytes = options.maxBytes ?? MAX_PACKAGE_BYTES;
  const code = input?.traceCode;
  if (typeof code !== 'string' || !isTraceCode(code)) {
    throw new SubmissionPackageError('invalid_input', `Cannot build the submission package: "${String(code)}" is not a trace code.`);
  }
  if (!(input.generatedAt instanceof Date) || Number.isNaN(input.generatedAt.getTime())) {
    throw new SubmissionPackageError('invalid_input', 'Cannot build the submission package: generatedAt is not a valid date.');
  }
  if (!input.business || !present(input.business.legal_name)) {
    throw new SubmissionPackageError('invalid_input', 'Cannot build the submission package: the business has no legal name.');
  }
  const documents = Array.isArray(input.documents) ? input.documents : [];
  const inputBytes = documents.reduce((n, d) => n + (d?.content?.length ?? 0), 0);
  if (inputBytes > maxBytes) {
    // Refused before parsing anything: the package would be at least this large.
    throw new SubmissionPackageError(
      'package_too_large',
      `Cannot build the submission package: the documents add up to ${mb(inputBytes)}; a package can be at most ${mb(maxBytes)}. Choose fewer or smaller documents.`,
    );
  }

  // Pass 1: read every document (refusing bad ones) so the page count is known before stamping.
  const loaded: LoadedDoc[] = [];
  for (let i = 0; i < documents.length; i++) loaded.push(await loadDocument(documents[i], i));
  const total = 1 + loaded.reduce((n, d) => n + d.pages, 0);
  if (total > MAX_PACKAGE_PAGES) {
    throw new SubmissionPackageError(
      'too_many_pages',
      `Cannot build the submission package: it would have ${total} pages; a package can have at most ${MAX_PACKAGE_PAGES}. Choose fewer documents.`,
    );
  }

  const out = await PDFDocument.create({ updateMetadata: false });
  const regular = await out.embedFont(StandardFonts.Helvetica);
  const bold = await out.embedFont(StandardFonts.HelveticaBold);
  const fonts: Fonts = { regular, bold, charset: new Set(regular.getCharacterSet()) };

  // The summary page comes first; it lists where each document starts.
  const summary = out.addPage(LETTER);
  const rows: DocRow[] = [];
  let next = 2;
  for (const d of loaded) {
    const range = d.pages === 1 ? `${next}` : `${next}–${next + d.pages - 1}`;
    const label = present(d.category) ? (CATEGORIES[d.category] ?? humanize(d.category)) : null;
    const what = d.kind === 'pdf' ? 'PDF' : `${d.kind.toUpperCase()} image`;
    rows.push({ filename: d.filename, what: toWinAnsi(label ? `${label}, ${what}` : what, fonts.charset), pages: range });
    next += d.pages;
  }
  drawSummary(summary, fonts, input, rows);
  stampOwnPage(summary, fonts, code, 1, total, 'Deal summary');

  // Pass 2: copy, place and stamp each document's pages.
  let pageNo = 2;
  for (const d of loaded) {
    const label = toWinAnsi(d.filename, fonts.charset);
    try {
      if (d.kind === 'pdf') {
        const copies = await out.copyPages(d.src, d.src.getPageIndices());
        copies.forEach((page, k) => {
          out.addPage(page);
          stampDocumentPage(page, fonts, code, pageNo, total, `${label} (${k + 1}/${d.pages})`);
          pageNo++;
        });
      } else {
        const image = d.kind === 'png' ? await out.embedPng(d.bytes) : await out.embedJpg(d.bytes);
        const page = addImagePage(out, image, d.orientation);
        stampOwnPage(page, fonts, code, pageNo, total, label);
        pageNo++;
      }
    } catch (err) {
      if (err instanceof SubmissionPackageError) throw err;
      const what = d.kind === 'pdf' ? 'the PDF is damaged and cannot be read' : `the ${d.kind.toUpperCase()} image is damaged`;
      throw new SubmissionPackageError('corrupt_document', `Cannot add "${d.filename}" to the submission package: ${what}.`, d.filename, d.index);
    }
  }

  stripActiveContent(out);

  // Metadata. Keywords carry the trace code; dates are generatedAt, so the output is reproducible.
  const name = String(input.business.legal_name).trim();
  out.setTitle(`Deal submission ${code}: ${name}`);
  out.setSubject(
    `${product(input.deal?.product_type)} request for ${money(input.deal?.requested_amount)} by ${name}` +
      (input.lender && present(input.lender.name) ? `, submitted to ${input.lender.name}` : ''),
  );
  out.setAuthor(String(input.location?.name ?? ''));
  out.setKeywords([code, 'deal submission']);
  out.setCreator(PACKAGE_CREATOR);
  out.setProducer(PACKAGE_PRODUCER);
  out.setCreationDate(input.generatedAt);
  out.setModificationDate(input.generatedAt);
  out.setLanguage('en-US');

  let bytes: Uint8Array;
  try {
    bytes = await out.save({ useObjectStreams: true, updateFieldAppearances: false, objectsPerTick: OBJECTS_PER_TICK });
  } catch {
    // Writing only fails on objects copied from a source document that pdf-lib could parse but not write.
    throw new SubmissionPackageError('corrupt_document', 'Cannot build the submission package: one of the PDFs is damaged and cannot be written.');
  }
  if (bytes.length > maxBytes) {
    throw new SubmissionPackageError(
      'package_too_large',
      `Cannot build the submission package: it would be ${mb(bytes.length)}; a package can be at most ${mb(maxBytes)}. Choose fewer or smaller documents.`,
    );
  }
  return bytes;
}

function mb(n: number): string {
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}
