// The name a scan's prepared pages are kept under in the reader process (review, finding 9): taken
// from the bytes before pdf.js opens them, so two scans never share one.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { openNamed } from '../../src/features/statements/ocr/scan-key.mjs';

const dir = 'contract-tests/fixtures/statements-blind-1/';
// Exact-size copies: each Uint8Array owns all of its buffer, as pdf.js may detach.
const own = (name: string) => new Uint8Array(readFileSync(dir + name));
const open = (b: Uint8Array) => getDocumentProxy(b, { isEvalSupported: false, disableFontFace: true, useSystemFonts: false, stopAtErrors: false });

describe('a scan is named by its bytes before pdf.js opens them', () => {
  it('two PDFs in exact-size Uint8Arrays get different names, each its own bytes and page count', async () => {
    const a = own('northbeam-bright-path-tutoring-2025-08.pdf');
    const b = own('tctfcu-greenleaf-landscaping-2025-06.pdf');
    const sha = (x: Uint8Array) => createHash('sha256').update(x).digest('hex');
    const [ha, hb] = [sha(a), sha(b)];
    const ka = await openNamed(open, a, a, 'pdf', 1000);
    const kb = await openNamed(open, b, b, 'pdf', 1000);
    expect(ka.key).not.toBe(kb.key);
    expect(ka.key).toBe(`${ha}:pdf:1000:${ka.pdf.numPages}`);
    expect(kb.key).toBe(`${hb}:pdf:1000:${kb.pdf.numPages}`);
    await ka.pdf.destroy();
    await kb.pdf.destroy();
  });
});
