// Recognition for the OCR (../ocr.mjs): the offline tesseract worker, a page image cleaned, read and
// turned into positioned items (with doubtful amounts read again), and every page of a PDF.
import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { deflateSync, inflateSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { clean, despeckle, otsu, resample } from './clean.mjs';
import { rotate, skewOf } from './deskew.mjs';
import { pageImage, pgm, pgmGray, upright } from './image.mjs';
import { amountAlternatives, readCrop, settleAmount, signAlternatives, signBefore } from './reread.mjs';
import { recoverBlock, uncoveredStrips } from './recover.mjs';
import { baselineLift, marksIn } from './rules.mjs';
import { AMOUNT, STRAY_LEAD, STRAY_TRAIL, fixDates, inkless, ocrText, speck, strayDash } from './words.mjs';

const require = createRequire(import.meta.url);

/** Where the English traineddata of @tesseract.js-data/eng is (the LSTM-only "best_int" model). */
export function langPath() {
  return join(dirname(require.resolve('@tesseract.js-data/eng')), '4.0.0_best_int');
}

/**
 * A full garbage collection, in the reader process: a page's decoded image and the buffers its
 * cleaning made (each a byte a pixel, eight or more of them for a 300 dpi page) are no longer
 * referenced when tesseract starts on the page, but V8 frees them only when it collects, so without
 * this they stay resident beside tesseract's own memory at its peak (measured: 20-40 MB of a scan's
 * peak, which decides whether the warm reader and its loaded recognizer are kept for the next scan).
 */
let collect = null;
function release() {
  if (!collect) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc');
  }
  collect();
}

let workerP = null;
/**
 * One tesseract worker per reader process, kept for the documents the process reads after. Without
 * the word lists (system and frequent-word dictionaries): statements are names, references and
 * figures, not English prose, the LSTM reads the same without them (the scanned set's figures
 * unchanged, 132/144, none wrong) and the reader's peak is about 20 MB lower.
 */
async function tesseract() {
  if (!workerP) {
    workerP = (async () => {
      const { createWorker, OEM } = await import('tesseract.js');
      const w = await createWorker('eng', OEM.LSTM_ONLY, { langPath: langPath(), cacheMethod: 'none', gzip: true, errorHandler: () => undefined }, { load_system_dawg: '0', load_freq_dawg: '0' });
      await w.setParameters({ tessedit_do_invert: '0', user_defined_dpi: '300' });
      return w;
    })();
    workerP.catch(() => (workerP = null));
  }
  return workerP;
}

/** Tuning of the cleaning (benchmarks compare them): the image tesseract gets, and its resolution. */
export const knobs = { debug: false, psm: '3', binary: false, minDpi: 240, maxDpi: 360, targetDpi: 300, dump: '', rereadBelow: 80, recover: true };
let dumped = 0;

const r1 = (n) => Math.round(n * 10) / 10;

/** Pixels of ink in a box (x1, y1 inclusive, as tesseract gives them). */
function inkIn(ink, W, b) {
  let n = 0;
  for (let y = Math.max(0, b.y0); y <= b.y1 && y * W < ink.length; y++) for (let x = Math.max(0, b.x0); x <= Math.min(W - 1, b.x1); x++) n += ink[y * W + x];
  return n;
}

/**
 * One page image read: { width, height, items, words, lowConfidence } in page points, or null when
 * the image is too small to hold text. `prepared`: the page as an earlier reading prepared it (`kept`),
 * else it is prepared here and handed to `onPrepared`.
 */
async function readImage(img, psm, prepared, onPrepared) {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  let prep;
  if (prepared) prep = prepared();
  else {
    prep = prepare(img);
    onPrepared?.(prep);
  }
  if (!prep) return null;
  return recognizePrepared(prep, psm, t0, c0);
}

/**
 * A page image made ready for the recognizer (turned upright, ~300 dpi, straightened, cleaned):
 * { box, W, H, dpi, skew, gray, ink }, or null when the image is too small to hold text. What it
 * gives depends on the image only (not on the page segmentation): a second reading of the same
 * scan reuses it (`PrepCache`).
 */
function prepare(img) {
  const up = upright(img);
  const boxW = up.box.x1 - up.box.x0;
  const boxH = up.box.y1 - up.box.y0;
  if (boxW < 36 || boxH < 36 || up.w < 100 || up.h < 100) return null;
  // Resolution of the image on the page, brought to about 300 dpi.
  const dpi = up.w / (boxW / 72);
  const k = dpi > knobs.maxDpi || dpi < knobs.minDpi ? knobs.targetDpi / dpi : 1;
  let W = up.w;
  let H = up.h;
  let gray = despeckle(up.gray, up.w, up.h);
  // (The page's image, as decoded and as turned upright, is not needed again: released below.)
  img.gray = null;
  up.gray = null;
  if (k !== 1) {
    W = Math.max(1, Math.round(up.w * k));
    H = Math.max(1, Math.round(up.h * k));
    gray = resample(gray, up.w, up.h, W, H);
  }
  const effDpi = W / (boxW / 72);
  const th = otsu(gray);
  let rough = new Uint8Array(W * H);
  for (let i = 0; i < rough.length; i++) rough[i] = gray[i] <= th ? 1 : 0;
  const skew = skewOf(rough, W, H);
  rough = null;
  if (Math.abs(skew) >= 0.1) gray = rotate(gray, W, H, skew);
  const ink = clean(gray, W, H, effDpi);
  // Tesseract finds the lines on its own binarisation and recognizes them from the grey image: it
  // gets the grey image with specks and ruled lines painted white (or the binary image).
  if (!knobs.binary) {
    // Paper is white: only the ink left after cleaning, and the pixels touching it (the grey edges
    // of strokes), keep their grey; specks, erased lines, their faint edges and grain are gone.
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const i = y * W + x;
        if (ink[i]) continue;
        const near = (x > 0 && ink[i - 1]) || (x + 1 < W && ink[i + 1]) || (y > 0 && ink[i - W]) || (y + 1 < H && ink[i + W]);
        if (!near) gray[i] = 255;
      }
    }
  }
  return { box: up.box, W, H, dpi, skew, gray, ink };
}

/** A prepared page (`prepare`) read: the rest of `readImage`. From here on `gray` and `ink` are only read. */
async function recognizePrepared(prep, psm, t0, c0) {
  const { box, W, H, dpi, skew, gray, ink } = prep;
  const boxW = box.x1 - box.x0;
  const boxH = box.y1 - box.y0;
  const up = { box };
  if (knobs.dump) (await import('node:fs')).writeFileSync(`${knobs.dump}-${++dumped}.pgm`, knobs.binary ? pgm(ink, W, H) : pgmGray(gray, W, H));
  const cw = process.cpuUsage();
  const cold = !workerP;
  const worker = await tesseract();
  const coldCpu = cold ? process.cpuUsage(cw) : null;
  release();
  if (worker.psm !== psm) {
    await worker.setParameters({ tessedit_pageseg_mode: psm });
    worker.psm = psm;
  }
  const t1 = performance.now();
  const prepCpu = process.cpuUsage(c0);
  const { data } = await worker.recognize(knobs.binary ? pgm(ink, W, H) : pgmGray(gray, W, H), {}, { blocks: true, text: false });
  // Ink the page layout left unread (a column taken for an image): read on its own (./recover.mjs).
  const c1 = process.cpuUsage();
  const heights = (data.blocks ?? []).flatMap((b) => (b.paragraphs ?? []).flatMap((p) => (p.lines ?? []).map((l) => l.bbox.y1 - l.bbox.y0))).sort((a, b) => a - b);
  const recovered = knobs.recover && heights.length ? await recoverBlock(worker, gray, ink, W, H, data, heights[heights.length >> 1]) : null;
  if (recovered) data.blocks = [...(data.blocks ?? []), recovered];
  const recoverCpu = process.cpuUsage(c1);
  // Ink inside a word's box that none of its characters accounts for, before or after them: a
  // dash (a minus sign the recognizer dropped, a thin stroke at mid-height) is put back; anything
  // else makes the word unreadable ("?"), so that an amount missing a mark is never read as another.
  for (const b of data.blocks ?? []) {
    for (const p of b.paragraphs ?? []) {
      for (const l of p.lines ?? []) {
        const lh = Math.max(8, l.bbox.y1 - l.bbox.y0);
        const ws = l.words ?? [];
        for (let wi = 0; wi < ws.length; wi++) {
          const wd = ws[wi];
          const syms = wd.symbols ?? [];
          // Amounts only ($1,234.56, 1,234.56, (12.00)): a mark beside one changes its sign.
          if (!syms.length || !/^[-\u2012-\u2015]?[$(]?\$?\d[\d,]*\.\d\d\)?[-\u2012-\u2015]?$/.test(wd.text ?? '')) continue;
          // A first or last character much wider than a digit swallowed a mark beside it.
          const digitW = syms.filter((y) => /\d/.test(y.text)).map((y) => y.bbox.x1 - y.bbox.x0).sort((a, b) => a - b);
          const dw = digitW[digitW.length >> 1] ?? lh * 0.5;
          const first = syms[0].bbox;
          const last = syms[syms.length - 1].bbox;
          // (Boxes of neighbouring characters may overlap: a character spans to where the next begins.)
          const firstEnd = syms.length > 1 ? Math.min(first.x1, syms[1].bbox.x0) : first.x1;
          const lastStart = syms.length > 1 ? Math.max(last.x0, syms[syms.length - 2].bbox.x1) : last.x0;
          const leadTo = firstEnd - first.x0 > dw * 1.6 ? firstEnd - dw * 1.1 : first.x0;
          const trailFrom = syms.length > 1 && last.x1 - lastStart > dw * 1.6 ? lastStart + dw * 1.1 : last.x1;
          const lead = marksIn(ink, W, wd.bbox.x0, Math.round(leadTo), wd.bbox.y0, wd.bbox.y1 + 1, lh);
          const trail = marksIn(ink, W, Math.round(trailFrom), wd.bbox.x1 + 1, wd.bbox.y0, wd.bbox.y1 + 1, lh);
          // A dash just outside the word's box, nearer to it than to the words beside it, that the
          // recognizer left out of the word (a minus sign, small at 150 dpi).
          // (A word beside it that is only a mark, the sign itself read with little confidence, does
          // not bound the search.)
          const reach = Math.round(lh * 0.7);
          const prev = ws.slice(0, wi).reverse().find((x) => /[A-Za-z0-9]/.test(x.text ?? ''));
          const next = ws.slice(wi + 1).find((x) => /[A-Za-z0-9]/.test(x.text ?? ''));
          const before = marksIn(ink, W, Math.max(0, wd.bbox.x0 - reach, prev ? Math.ceil((prev.bbox.x1 + wd.bbox.x0) / 2) : 0), wd.bbox.x0, wd.bbox.y0, wd.bbox.y1 + 1, lh, true);
          const after = marksIn(ink, W, wd.bbox.x1 + 1, Math.min(W, wd.bbox.x1 + 1 + reach, next ? Math.floor((wd.bbox.x1 + next.bbox.x0) / 2) : W), wd.bbox.y0, wd.bbox.y1 + 1, lh, true);
          // The sign read as a word of its own, with too little confidence to be kept: the ink
          // confirms it (it is glued to the amount below).
          const signWord = wi > 0 && /^[-\u2012-\u2015\u2212]+$/.test(ws[wi - 1].text ?? '') ? ws[wi - 1] : null;
          const sign = signBefore(before, signWord);
          if (sign === 'sign') signWord.confidence = 100;
          else if (sign === 'doubt') wd.signDoubt = true;
          else if ((lead === 'dash' || before === 'dash') && !/^[-\u2012-\u2015]/.test(wd.text)) wd.text = `-${wd.text}`;
          if ((trail === 'dash' || after === 'dash') && !/[-\u2012-\u2015]$/.test(wd.text)) wd.text = `${wd.text}-`;
          wd.marks = { lead: lead === 'other' || (before === 'other' && !signWord), trail: trail === 'other' || after === 'other' };
        }
      }
    }
  }
  // Doubtful amounts read a second time, alone: ink beside one that its characters do not account
  // for (a mark dropped, or only a character's box drawn too narrow), a stray mark read at its
  // edge, or a low confidence. Each is cut out of the page, enlarged and read as one line of
  // digits and signs (`settleAmount` decides); one that stays doubtful is unreadable ("?").
  const doubtful = [];
  for (const b of data.blocks ?? []) {
    for (const p of b.paragraphs ?? []) {
      for (const l of p.lines ?? []) {
        const lh = Math.max(8, l.bbox.y1 - l.bbox.y0);
        const ws = l.words ?? [];
        ws.forEach((wd, i) => {
          const text = wd.text ?? '';
          const core = text.replace(STRAY_LEAD, '').replace(STRAY_TRAIL, '');
          if (!AMOUNT.test(core)) return;
          // (A sign in doubt is not read again: with and without it are the alternatives.)
          const why = wd.signDoubt && !/^[-\u2012-\u2015(]/.test(core) ? 'sign' : wd.marks?.lead || wd.marks?.trail ? 'mark' : core !== text ? 'stray' : wd.confidence < knobs.rereadBelow ? 'low' : null;
          // The crop reaches toward the words beside it by at most half the gap (a mark is nearer
          // to its amount than to the next word), by a fifth of the line height when the doubt is
          // not about a mark.
          const reach = why === 'mark' ? lh * 0.6 : lh * 0.2;
          const left = Math.min(reach, i > 0 ? (wd.bbox.x0 - ws[i - 1].bbox.x1) / 2 : reach);
          const right = Math.min(reach, i + 1 < ws.length ? (ws[i + 1].bbox.x0 - wd.bbox.x1) / 2 : reach);
          if (why) doubtful.push({ wd, lh, core, why, left: Math.max(1, Math.floor(left)), right: Math.max(1, Math.floor(right)) });
        });
      }
    }
  }
  let reread = 0;
  const c2 = process.cpuUsage();
  if (doubtful.length) {
    if (doubtful.some((d) => d.why !== 'sign')) {
      await worker.setParameters({ tessedit_pageseg_mode: '7', tessedit_char_whitelist: '0123456789.,$()-' });
      worker.psm = '7';
    }
    try {
      for (const d of doubtful) {
        if (d.why === 'sign') {
          d.wd.alts = signAlternatives(d.core);
          d.wd.text = d.wd.alts[0];
          continue;
        }
        const reads = [];
        const settled = await settleAmount(d.core, d.why, d.wd.marks, async () => {
          reread++;
          const r = await readCrop(worker, gray, W, H, d, reads.length ? 3 : 2);
          reads.push(r);
          return r;
        });
        if (knobs.debug) console.error(JSON.stringify({ reread: d.core, why: d.why, reads, settled }));
        d.wd.text = settled ?? `${d.core}?`;
        if (!settled && d.why !== 'mark') {
          const alts = amountAlternatives(d.core, reads);
          if (alts.length > 1) d.wd.alts = [d.wd.text, ...alts];
        }
      }
    } finally {
      await worker.setParameters({ tessedit_char_whitelist: '' });
    }
  }
  const rereadCpu = process.cpuUsage(c2);
  const sx = boxW / W;
  const sy = boxH / H;
  const medianH = heights[heights.length >> 1] ?? 30;
  const items = [];
  const kept = [];
  let words = 0;
  let low = 0;
  for (const b of data.blocks ?? []) {
    for (const p of b.paragraphs ?? []) {
      for (const l of p.lines ?? []) {
        const bl = l.baseline;
        const slope = bl && bl.x1 !== bl.x0 ? (bl.y1 - bl.y0) / (bl.x1 - bl.x0) : 0;
        // The baseline where the line's letters stand: the recognizer fits its baseline to every blot
        // in the line's box, so a speck below a word (or glued into its box) can lower a line by a
        // third of its height, off the row it belongs to (a column's header lost). When the ink of
        // the line's kept words puts the letters more than a fifth of a line height higher, the
        // line stands where its ink says (the recognizer's slope kept).
        const mx = (l.bbox.x0 + l.bbox.x1) / 2;
        const lift = bl ? baselineLift(ink, W, (l.words ?? []).filter((wd) => { const s = ocrText((wd.text ?? '').trim()); return s && !speck(s, wd.confidence); }).map((wd) => wd.bbox), bl.y0 + slope * (mx - bl.x0), medianH) : 0;
        // The line's height (ascender to descender) is about its font size.
        const size = (l.rowAttributes?.rowHeight || l.bbox.y1 - l.bbox.y0) * 1.05;
        // Words a normal space apart make one item (as a text layer's run would); a wider gap
        // starts another, so that columns stay apart.
        let run = null;
        const flush = () => {
          if (!run) return;
          const bare = strayDash(run.s);
          if (bare !== run.s && run.beforeDash !== undefined) {
            run.s = bare;
            run.x1 = run.beforeDash;
          }
          const cx = (run.x0 + run.x1) / 2;
          const base = bl ? bl.y0 + slope * (cx - bl.x0) - lift : run.y1;
          items.push({ x: r1(up.box.x0 + run.x0 * sx), y: r1(up.box.y0 + base * sy), w: r1((run.x1 - run.x0) * sx), h: r1(size * sy), s: run.s, ...(run.alt.length ? { alt: run.alt } : {}) });
          run = null;
        };
        for (const wd of l.words ?? []) {
          const s = ocrText((wd.text ?? '').trim());
          if (!s || speck(s, wd.confidence) || (wd.confidence < 50 && inkless(inkIn(ink, W, wd.bbox), s.length, l.bbox.y1 - l.bbox.y0, wd.confidence))) continue;
          // An unsettled amount: the word as written here ("1,234.56?"), then what it may be.
          const alt = wd.alts && wd.alts[0] === s ? wd.alts : null;
          kept.push(wd.bbox);
          words++;
          if (wd.confidence < 60) low++;
          if (knobs.debug) console.error(JSON.stringify({ t: wd.text, c: Math.round(wd.confidence), b: wd.bbox }));
          if (run && wd.bbox.x0 - run.x1 < 0.6 * size) {
            run.beforeDash = /^[-\u2012-\u2015\u2212]$/.test(s) ? run.x1 : undefined;
            // A sign read as a word of its own is glued to the amount after it ("- $880.00").
            run.s += /^[-+$(]$/.test(run.s.slice(-1)) && /(^|\s)[-+$(]$/.test(run.s) && /^[$\d(]/.test(s) ? s : ` ${s}`;
            run.x1 = wd.bbox.x1;
            run.y1 = Math.max(run.y1, wd.bbox.y1);
          } else {
            flush();
            run = { x0: wd.bbox.x0, x1: wd.bbox.x1, y1: wd.bbox.y1, s, alt: [] };
          }
          if (alt) run.alt.push(alt.slice(0, 4));
        }
        flush();
      }
    }
  }
  fixDates(items);
  // Ink no kept word covers (a date the recognizer left out, a word dropped as a speck), a region of
  // at least four cells of a third of a line: what the reader must not take for paper (a row
  // without its own date takes the date above it only where paper is, ../read.ts).
  const g = Math.max(4, Math.round((heights[heights.length >> 1] ?? 30) / 3));
  const unread = uncoveredStrips(ink, W, H, kept, g, 1)
    .flatMap((st) => st.parts)
    .filter((p) => p.cells >= 4)
    .map((p) => ({ x0: r1(up.box.x0 + p.x0 * sx), y0: r1(up.box.y0 + p.y0 * sy), x1: r1(up.box.x0 + p.x1 * sx), y1: r1(up.box.y0 + p.y1 * sy) }));
  return { items, unread, words, low, reread, skew, dpi: Math.round(dpi), prepMs: Math.round(t1 - t0), ocrMs: Math.round(performance.now() - t1), prepCpuMs: Math.round((prepCpu.user + prepCpu.system) / 1000), recovered: recovered ? recovered.paragraphs[0].lines.reduce((n, l) => n + l.words.length, 0) : 0, recoverCpuMs: Math.round((recoverCpu.user + recoverCpu.system) / 1000), rereadCpuMs: Math.round((rereadCpu.user + rereadCpu.system) / 1000), coldCpuMs: coldCpu ? Math.round((coldCpu.user + coldCpu.system) / 1000) : 0 };
}

/**
 * The pages of the last scan read, as prepared for the recognizer (`prepare`: the same for either
 * page segmentation), kept for a second reading of that scan in this process (./analyze.ts reads a
 * scan whose first reading does not reconcile once more, as one block of lines): that reading skips
 * decoding, straightening and cleaning each page again (about 1 CPU-s of a page's 4-7). `key` names
 * the scan (its bytes, kind and pixel limit, and the cleaning's knobs); the images are kept
 * deflated (a cleaned page is mostly white paper: measured 0.5 MB for a 300 dpi page, 1.6 MB for a
 * noisy 150 dpi JPEG's, instead of 17 MB), so a warm reader stays under its memory mark. Only the
 * last scan's: dropped at the end of its second reading (there is no third), and when the reader
 * starts any other job (`forgetPrepared`, ../pdf-text.child.mjs), so pages of a scan whose first
 * reading reconciled wait at most until the reader's next job; a page not kept is prepared again.
 */
let prepCache = { key: null, pages: new Map() };
/** Drops the kept pages (the reader process, before any job but a scan's second reading). */
export function forgetPrepared() {
  prepCache = { key: null, pages: new Map() };
}
/** A page of the kept scan that paints no image. */
const NO_IMAGE = 'none';
const u8 = (b) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
function keep(key, i, prep) {
  if (prepCache.key !== key) prepCache = { key, pages: new Map() };
  prepCache.pages.set(i, prep && prep !== NO_IMAGE ? { ...prep, gray: deflateSync(prep.gray, { level: 1 }), ink: deflateSync(prep.ink, { level: 1 }) } : prep);
}
/** The kept page `i` of the scan `key`: NO_IMAGE, a thunk giving its prepared image (null: too small to read), or undefined when not kept. */
function kept(key, i) {
  if (!key || prepCache.key !== key || !prepCache.pages.has(i)) return undefined;
  const p = prepCache.pages.get(i);
  return p === NO_IMAGE ? p : () => p && { ...p, gray: u8(inflateSync(p.gray)), ink: u8(inflateSync(p.ink)) };
}

/**
 * OCR of every page of a PDF without a text layer: { ok, pages, items: [{ width, height, items }],
 * stats } or a failure code. `pdf` is an open pdf.js document; `deadline` the time (ms since epoch)
 * after which no new page is started (the parent kills the process at its own limit anyway); `key`
 * names the scan (the reader process: a hash of its bytes) for the pages kept for its second reading.
 */
export async function ocrPdf(pdf, OPS, { maxPages, layout = 'auto', key = null }) {
  // (The cleaning's knobs are part of what a kept page is.)
  key = key && `${key}:${knobs.binary}:${knobs.minDpi}:${knobs.maxDpi}:${knobs.targetDpi}`;
  // Page segmentation: tesseract finds the blocks of the page (auto), or reads it as one block of
  // lines across the page (block; the second reading of a scan whose first did not reconcile).
  const psm = layout === 'block' ? '6' : knobs.psm;
  const pages = pdf.numPages;
  if (pages > maxPages) return { ok: false, code: 'too_many_pages', pages };
  const out = [];
  const stats = [];
  let images = 0;
  for (let i = 1; i <= pages; i++) {
    const page = await pdf.getPage(i);
    const viewport = page.getViewport({ scale: 1 });
    // A page prepared by an earlier reading of the same scan is not decoded again.
    const prepared = key ? kept(key, i) : undefined;
    let img = prepared ? null : await pageImage(page, OPS);
    // pdf.js keeps the page's decoded images until the page is cleaned up: the grey copy is all that
    // is read, so the decoded image goes before recognition (a 300 dpi page's is about 25 MB).
    page.cleanup();
    const t = performance.now();
    const cpu = process.cpuUsage();
    const had = prepared ? prepared !== NO_IMAGE : !!img;
    const r = had ? await readImage(img, psm, prepared, (prep) => key && keep(key, i, prep)) : null;
    if (!prepared && !img && key) keep(key, i, NO_IMAGE);
    img = null;
    const used = process.cpuUsage(cpu);
    if (had) images++;
    out.push({ width: r1(viewport.width), height: r1(viewport.height), items: r ? r.items : [], unread: r ? r.unread : [] });
    stats.push({ ms: Math.round(performance.now() - t), cpuMs: Math.round((used.user + used.system) / 1000), prepMs: r?.prepMs ?? 0, ocrMs: r?.ocrMs ?? 0, prepCpuMs: r?.prepCpuMs ?? 0, rereadCpuMs: r?.rereadCpuMs ?? 0, recovered: r?.recovered ?? 0, recoverCpuMs: r?.recoverCpuMs ?? 0, coldCpuMs: r?.coldCpuMs ?? 0, words: r?.words ?? 0, low: r?.low ?? 0, reread: r?.reread ?? 0, skew: r?.skew ?? 0, dpi: r?.dpi ?? 0 });
  }
  // The second reading was the last use of the pages kept.
  if (layout === 'block') prepCache = { key: null, pages: new Map() };
  if (!images) return { ok: false, code: 'no_images', pages };
  return { ok: true, pages, items: out, stats };
}
