// The name of a scan for the pages its reading prepares (./recognize.mjs `prepCache`), taken in the
// reader process (../pdf-text.child.mjs).
import { createHash } from 'node:crypto';

/**
 * Opens the scan's PDF (`open`: pdf.js's getDocumentProxy) and names the scan: a hash of its bytes,
 * its kind, the pixel limit and its page count. The bytes are hashed before pdf.js sees them: pdf.js
 * may take (detach) the buffer of a Uint8Array that owns all of it, which then reads as empty, and
 * every scan would share the name of no bytes (review, finding 9: another tenant's scan's pages).
 */
export async function openNamed(open, pdfBytes, bytes, kind, maxPixels) {
  const hash = createHash('sha256').update(bytes).digest('hex');
  const pdf = await open(pdfBytes);
  return { pdf, key: `${hash}:${kind}:${maxPixels}:${pdf.numPages}` };
}
