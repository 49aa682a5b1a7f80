// Runs in a child process (see ./extract.ts and src/lib/isolated.ts): reads a PDF's text with pdf.js
// (through unpdf) and returns every page's positioned text items (x, y, width, font size, text) and
// the page's size; lines and columns are built from them by the caller (./extract.ts,
// ./analyze.ts). Input (the bytes and limits) and output cross stdin/stdout v8-serialized. The
// parent caps this process's heap, its whole memory (prlimit --data and an RSS watch) and its time,
// so a hostile PDF (a decompression bomb, a form XObject nested a billion times) cannot stall or
// exhaust the API process.
//
// Before pdf.js sees the file, the decoded size of its Flate streams (chained Flate filters
// included) is counted without keeping the output, 64 KB at a time; past `maxDecodedBytes` in total
// the file is refused (`resource_limit`). pdf.js inflates into ArrayBuffers outside the V8 heap, so
// this is what keeps a 1 MB file from turning into gigabytes; streams under other filters are left
// to the memory caps.
import { deserialize, serialize } from 'node:v8';
import { constants, createInflate } from 'node:zlib';
import { getDocumentProxy, getResolvedPDFJS } from 'unpdf';
import { openNamed } from './ocr/scan-key.mjs';

/**
 * The page's text items with their geometry, in the page's upright view (a rotated or landscape page
 * is turned by its viewport, so y grows downward from the top left and x to the right as read):
 * x, y (baseline), w (width), h (font size), s (text). Empty items are dropped; an item the content
 * stream follows with a space of its own (a space shown apart, as OCR layers write a word and then its
 * trailing space) is marked `sp`: the next item starts a new word however close it sits.
 */
function itemsOf(items, viewport) {
  const [a, b, c, d, e, f] = viewport.transform;
  const out = [];
  let last = null;
  for (const it of items) {
    if (typeof it.str !== 'string' || !it.str.trim()) {
      if (last && typeof it.str === 'string' && /^[ \u00a0]+$/.test(it.str)) last.sp = 1;
      last = null;
      continue;
    }
    const [ta, tb, tc, td, tx, ty] = it.transform;
    // The item's matrix in the upright view: viewport × text matrix.
    const m0 = a * ta + c * tb;
    const m1 = b * ta + d * tb;
    const m2 = a * tc + c * td;
    const m3 = b * tc + d * td;
    const x = a * tx + c * ty + e;
    const y = b * tx + d * ty + f;
    const size = Math.hypot(m2, m3) || it.height || 0;
    // Text that runs up or down the upright page (a side note) is kept but marked.
    const vertical = Math.abs(m1) > Math.abs(m0);
    last = { x: r1(x), y: r1(y), w: r1(it.width ?? 0), h: r1(size), s: it.str, ...(vertical ? { v: 1 } : {}) };
    out.push(last);
  }
  return out;
}
const r1 = (n) => Math.round(n * 10) / 10;

/** Every stream of the file: its dictionary text and its data's bounds. */
function* streamsOf(text) {
  const re = /(?<!end)stream\r?\n|(?<!end)stream\r/g;
  let m;
  while ((m = re.exec(text))) {
    const from = m.index;
    const objAt = text.lastIndexOf(' obj', from);
    const dict = text.slice(Math.max(objAt, from - 4096, 0), from);
    const start = from + m[0].length;
    let end = text.indexOf('endstream', start);
    if (end < 0) end = text.length;
    yield { dict, start, end };
    re.lastIndex = end;
  }
}

/** How many bytes `data` decodes to through `layers` Flate filters, counting at most to `limit`. */
function inflatedLength(data, layers, limit) {
  return new Promise((resolve) => {
    const chain = Array.from({ length: layers }, () => createInflate({ finishFlush: constants.Z_SYNC_FLUSH, chunkSize: 64 * 1024 }));
    let n = 0;
    let done = false;
    const end = () => {
      if (done) return;
      done = true;
      for (const z of chain) z.destroy();
      resolve(n);
    };
    for (let i = 0; i < chain.length; i++) {
      chain[i].on('error', end);
      if (i + 1 < chain.length) chain[i].pipe(chain[i + 1]);
    }
    const last = chain[chain.length - 1];
    last.on('data', (c) => {
      n += c.length;
      if (n > limit) end();
    });
    last.on('end', end);
    chain[0].end(data);
  });
}

/** Decoded bytes of the file's Flate streams, counted up to just past `budget`. */
async function decodedBytes(bytes, budget) {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  let total = 0;
  for (const s of streamsOf(text)) {
    const filter = /\/Filter\s*(\[[^\]]*\]|\/[A-Za-z0-9]+)/.exec(s.dict)?.[1] ?? '';
    const names = filter.match(/\/[A-Za-z0-9]+/g) ?? [];
    let layers = 0;
    while (layers < names.length && (names[layers] === '/FlateDecode' || names[layers] === '/Fl')) layers++;
    if (!layers) {
      total += s.end - s.start;
    } else {
      total += await inflatedLength(bytes.subarray(s.start, s.end), layers, budget - total);
    }
    if (total > budget) return total;
  }
  return total;
}

async function main({ bytes, maxPages, maxDecodedBytes }) {
  if ((await decodedBytes(bytes, maxDecodedBytes)) > maxDecodedBytes) return { ok: false, code: 'resource_limit' };
  let pdf;
  try {
    pdf = await getDocumentProxy(bytes, { isEvalSupported: false, disableFontFace: true, useSystemFonts: false, stopAtErrors: false, maxImageSize: 1024 * 1024 });
  } catch (err) {
    const name = err && err.name;
    if (name === 'PasswordException') return { ok: false, code: 'encrypted' };
    return { ok: false, code: 'unreadable', detail: String(name || 'error') };
  }
  try {
    const pages = pdf.numPages;
    if (pages > maxPages) return { ok: false, code: 'too_many_pages', pages };
    const out = [];
    for (let i = 1; i <= pages; i++) {
      const page = await pdf.getPage(i);
      const content = await page.getTextContent();
      const viewport = page.getViewport({ scale: 1 });
      out.push({ width: r1(viewport.width), height: r1(viewport.height), items: itemsOf(content.items, viewport) });
      page.cleanup();
    }
    return { ok: true, pages, items: out };
  } finally {
    await pdf.destroy();
  }
}

/**
 * OCR of a scan (./ocr.mjs): a PDF whose pages are images, or a PNG or JPEG (`kind`). Images over
 * `maxPixels` are refused before they are decoded; at most `maxPages` pages are read.
 */
async function ocr({ bytes, kind, maxPages, maxPixels, maxDecodedBytes, layout }) {
  const { ocrPdf, imagePdf, imageSize, forgetPrepared } = await import('./ocr.mjs');
  forget = forgetPrepared;
  let pdfBytes = bytes;
  if (kind !== 'pdf') {
    const size = imageSize(bytes);
    if (!size || size.type !== kind) return { ok: false, code: 'unreadable', detail: 'not_image' };
    if (size.w * size.h > maxPixels) return { ok: false, code: 'resource_limit', pages: 1 };
    try {
      pdfBytes = await imagePdf(bytes, size.type);
    } catch (err) {
      return { ok: false, code: 'unreadable', detail: String((err && err.message) || 'error').slice(0, 200) };
    }
  } else if ((await decodedBytes(bytes, maxDecodedBytes)) > maxDecodedBytes) return { ok: false, code: 'resource_limit' };
  let pdf;
  let key;
  try {
    // The scan's name for the pages its reading prepares (kept for a second reading of it here),
    // its bytes hashed before pdf.js may detach them (./ocr/scan-key.mjs).
    ({ pdf, key } = await openNamed((b) => getDocumentProxy(b, { isEvalSupported: false, disableFontFace: true, useSystemFonts: false, stopAtErrors: false, maxImageSize: maxPixels, isOffscreenCanvasSupported: false, isImageDecoderSupported: false }), pdfBytes, bytes, kind, maxPixels));
  } catch (err) {
    return { ok: false, code: err && err.name === 'PasswordException' ? 'encrypted' : 'unreadable', detail: String((err && err.name) || 'error') };
  }
  try {
    const { OPS } = await getResolvedPDFJS();
    return await ocrPdf(pdf, OPS, { maxPages, layout, key });
  } finally {
    await pdf.destroy();
  }
}

/** Drops the pages a scan's reading kept (./ocr/recognize.mjs), once the recognizer is loaded. */
let forget = null;

const answer = (input) => {
  // A scan's pages are kept for its second reading only: any other job drops them first.
  if (forget && !(input.mode === 'ocr' && input.layout === 'block')) forget();
  return (input.mode === 'ocr' ? ocr(input) : main(input)).catch((err) =>
    // An allocation refused by the memory cap surfaces as a RangeError.
    err instanceof RangeError && /allocation failed|out of memory/i.test(err.message) ? { ok: false, code: 'resource_limit' } : { ok: false, code: 'unreadable', detail: String((err && err.name) || 'error') },
  );
};

if (process.env.ISOLATED_POOL === '1') {
  // A warm reader (src/lib/isolated.ts IsolatedPool): one document after another, each input and
  // answer a length-prefixed v8-serialized frame; the parent kills and replaces this process on a
  // time or memory breach and recycles it after a number of documents.
  let buf = Buffer.alloc(0);
  let busy = Promise.resolve();
  process.stdin.on('data', (c) => {
    buf = Buffer.concat([buf, c]);
    while (buf.length >= 4 && buf.length >= 4 + buf.readUInt32LE(0)) {
      const n = buf.readUInt32LE(0);
      const frame = buf.subarray(4, 4 + n);
      buf = buf.subarray(4 + n);
      const input = deserialize(frame);
      busy = busy.then(async () => {
        const out = serialize(await answer(input));
        const head = Buffer.alloc(4);
        head.writeUInt32LE(out.length, 0);
        await new Promise((resolve) => process.stdout.write(Buffer.concat([head, out]), resolve));
      });
    }
  });
  process.stdin.on('end', () => busy.then(() => process.exit(0)));
} else {
  const parts = [];
  for await (const c of process.stdin) parts.push(c);
  const result = await answer(deserialize(Buffer.concat(parts)));
  process.stdout.write(serialize(result), () => process.exit(0));
}
