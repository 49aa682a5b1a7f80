// Each chosen document read before anything is drawn: sniffed from its bytes (PDF, PNG, JPEG),
// parsed or measured, and refused with a SubmissionPackageError naming the file.
import { PDFDocument, ParseSpeeds } from 'pdf-lib';
import { MAX_DOCUMENT_PAGES, MAX_PNG_PIXELS, type PackageDocument, SubmissionPackageError, type SubmissionPackageErrorCode } from './model';

/** Objects parsed between yields to the event loop (see OBJECTS_PER_TICK in model.ts). */
const PARSE_SPEED = ParseSpeeds.Fast;

export type LoadedDoc =
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

export async function loadDocument(doc: PackageDocument, index: number): Promise<LoadedDoc> {
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
