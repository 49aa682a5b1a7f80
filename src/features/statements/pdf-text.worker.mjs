// Runs in a worker thread (see ./extract.ts): reads a PDF's text with pdf.js (through unpdf) and
// returns its lines, each a list of positioned text runs. The thread has its own heap limit and is
// terminated by its parent after a time limit, so a hostile PDF (a decompression bomb, a form
// XObject nested a billion times) cannot stall the process or exhaust its memory.
import { parentPort, workerData } from 'node:worker_threads';
import { getDocumentProxy } from 'unpdf';

const { bytes, maxPages } = workerData;

function linesOf(items) {
  // Group runs by baseline (y, rounded to 2 points), top to bottom; runs left to right.
  const rows = new Map();
  for (const it of items) {
    if (typeof it.str !== 'string' || !it.str.trim()) continue;
    const x = it.transform[4];
    const y = Math.round(it.transform[5] / 2) * 2;
    if (!rows.has(y)) rows.set(y, []);
    rows.get(y).push({ x: Math.round(x * 10) / 10, w: Math.round((it.width ?? 0) * 10) / 10, text: it.str });
  }
  return [...rows.entries()].sort((a, b) => b[0] - a[0]).map(([, runs]) => runs.sort((a, b) => a.x - b.x));
}

async function main() {
  let pdf;
  try {
    pdf = await getDocumentProxy(bytes, { isEvalSupported: false, disableFontFace: true, useSystemFonts: false, stopAtErrors: false, maxImageSize: 1024 * 1024 });
  } catch (err) {
    const name = err && err.name;
    if (name === 'PasswordException') return { ok: false, code: 'encrypted' };
    return { ok: false, code: 'unreadable', detail: String(name || 'error') };
  }
  const pages = pdf.numPages;
  if (pages > maxPages) return { ok: false, code: 'too_many_pages', pages };
  const out = [];
  for (let i = 1; i <= pages; i++) {
    const page = await pdf.getPage(i);
    const content = await page.getTextContent();
    out.push(linesOf(content.items));
    page.cleanup();
  }
  await pdf.destroy();
  return { ok: true, pages, lines: out };
}

main().then(
  (result) => parentPort.postMessage(result),
  (err) => parentPort.postMessage({ ok: false, code: 'unreadable', detail: String((err && err.name) || 'error') }),
);
