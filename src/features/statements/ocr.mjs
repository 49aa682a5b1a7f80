// OCR of scanned statements, inside the statement reader process (./pdf-text.child.mjs, run with
// time and memory limits by ./extract.ts through src/lib/isolated.ts). Offline: tesseract.js runs
// its WebAssembly build from node_modules with the English LSTM data of the @tesseract.js-data/eng
// package (langPath points at the package's files, no cache is read or written, nothing is
// fetched).
//
// A page image comes from the PDF itself (the largest image pdf.js decodes on the page, placed where
// the page's content stream puts it) or from an uploaded PNG or JPEG (wrapped into a one-page PDF,
// a Letter-width page, so both take the same path). Each image is turned upright, made grey, brought
// to about 300 dpi, binarised (Otsu), straightened (the skew angle that makes text rows the
// sharpest, within ±6°), cleaned of isolated specks and of ruled lines (long thin runs of ink that
// would otherwise strike through the text), and read by tesseract. Its words, with their boxes and
// the line's baseline and height, become positioned text items in page points (x, y of the
// baseline from the top left, width, font size), exactly what the text-layer path gives the
// reader (./read.ts). A doubtful amount (low confidence, a stray mark at its edge, ink beside it its
// characters do not explain) is cut out (its own line's band of ink only), enlarged and read again
// as digits and signs: kept when a second reading agrees, else unreadable ("?") with the values
// read as alternatives (`Item.alt`; the signs read, when every reading has its value), of which
// ./analyze.ts takes a combination only when exactly one reconciles. A dash read alone after a
// description (a speck) is dropped: a sign is printed beside its amount. Nothing here decides a
// figure: a misread amount or date ends in the reconciliation's refusal.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** Where the English traineddata of @tesseract.js-data/eng is (the LSTM-only "best_int" model). */
export function langPath() {
  return join(dirname(require.resolve('@tesseract.js-data/eng')), '4.0.0_best_int');
}

let workerP = null;
/** One tesseract worker per reader process, kept for the documents the process reads after. */
async function tesseract() {
  if (!workerP) {
    workerP = (async () => {
      const { createWorker, OEM } = await import('tesseract.js');
      const w = await createWorker('eng', OEM.LSTM_ONLY, { langPath: langPath(), cacheMethod: 'none', gzip: true, errorHandler: () => undefined });
      await w.setParameters({ tessedit_do_invert: '0', user_defined_dpi: '300' });
      return w;
    })();
    workerP.catch(() => (workerP = null));
  }
  return workerP;
}

// ------------------------------------------------------------------------------------ images in a PDF

const mul = (m, n) => [m[0] * n[0] + m[2] * n[1], m[1] * n[0] + m[3] * n[1], m[0] * n[2] + m[2] * n[3], m[1] * n[2] + m[3] * n[3], m[0] * n[4] + m[2] * n[5] + m[4], m[1] * n[4] + m[3] * n[5] + m[5]];

/**
 * The page's largest image, grey, with the matrix that maps its unit square to the upright page
 * (viewport × CTM), or null when the page paints no image.
 */
async function pageImage(page, OPS) {
  const ops = await page.getOperatorList();
  let ctm = [1, 0, 0, 1, 0, 0];
  const stack = [];
  let best = null;
  for (let i = 0; i < ops.fnArray.length; i++) {
    const fn = ops.fnArray[i];
    const args = ops.argsArray[i];
    if (fn === OPS.save) stack.push(ctm);
    else if (fn === OPS.restore) ctm = stack.pop() ?? ctm;
    else if (fn === OPS.transform) ctm = mul(ctm, args);
    else if (fn === OPS.paintFormXObjectBegin) {
      stack.push(ctm);
      if (Array.isArray(args?.[0]) && args[0].length === 6) ctm = mul(ctm, args[0]);
    } else if (fn === OPS.paintFormXObjectEnd) ctm = stack.pop() ?? ctm;
    else if (fn === OPS.paintImageXObject || fn === OPS.paintInlineImageXObject) {
      const area = Math.abs(ctm[0] * ctm[3] - ctm[1] * ctm[2]);
      if (!best || area > best.area) best = { area, ctm, ref: fn === OPS.paintImageXObject ? args[0] : args[0] };
    }
  }
  if (!best) return null;
  const img = typeof best.ref === 'string' ? await new Promise((resolve) => (best.ref.startsWith('g_') ? page.commonObjs : page.objs).get(best.ref, resolve)) : best.ref;
  if (!img || !img.width || !img.height || !img.data) return null;
  const viewport = page.getViewport({ scale: 1 });
  return { gray: toGray(img), w: img.width, h: img.height, m: mul(viewport.transform, best.ctm), pageW: viewport.width, pageH: viewport.height };
}

/** pdf.js image data (1-bit, RGB or RGBA) as 8-bit grey. */
function toGray(img) {
  const { width: w, height: h, data } = img;
  const out = new Uint8Array(w * h);
  if (img.kind === 1 || data.length === Math.ceil(w / 8) * h) {
    const stride = Math.ceil(w / 8);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) out[y * w + x] = data[y * stride + (x >> 3)] & (128 >> (x & 7)) ? 255 : 0;
    return out;
  }
  const ch = data.length / (w * h);
  if (ch === 1) return Uint8Array.from(data);
  for (let i = 0, j = 0; i < out.length; i++, j += ch) out[i] = (data[j] * 299 + data[j + 1] * 587 + data[j + 2] * 114) / 1000;
  if (ch === 4) for (let i = 0, j = 3; i < out.length; i++, j += 4) if (data[j] < 128) out[i] = 255; // transparent: paper
  return out;
}

/**
 * The image turned so that its rows run left to right down the upright page (a page rotated by its
 * /Rotate or an image placed sideways), with the page box it covers: { gray, w, h, box }.
 */
function upright({ gray, w, h, m }) {
  // Unit square: image x runs along (m0, m1); image rows run down along (-m2, -m3) (PDF images are
  // painted top row at t = 1).
  const ax = Math.abs(m[0]) >= Math.abs(m[1]) ? { axis: 'x', sign: Math.sign(m[0]) } : { axis: 'y', sign: Math.sign(m[1]) };
  const dy = Math.abs(m[3]) >= Math.abs(m[2]) ? { axis: 'y', sign: -Math.sign(m[3]) } : { axis: 'x', sign: -Math.sign(m[2]) };
  const corners = [[0, 0], [1, 0], [0, 1], [1, 1]].map(([s, t]) => [m[0] * s + m[2] * t + m[4], m[1] * s + m[3] * t + m[5]]);
  const box = { x0: Math.min(...corners.map((c) => c[0])), y0: Math.min(...corners.map((c) => c[1])), x1: Math.max(...corners.map((c) => c[0])), y1: Math.max(...corners.map((c) => c[1])) };
  if (ax.axis === 'x' && ax.sign > 0 && dy.axis === 'y' && dy.sign > 0) return { gray, w, h, box };
  // Output pixel (X, Y) in the upright frame from source (x, y).
  const swap = ax.axis === 'y';
  const W = swap ? h : w;
  const H = swap ? w : h;
  const out = new Uint8Array(W * H);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let X;
      let Y;
      if (!swap) {
        X = ax.sign > 0 ? x : w - 1 - x;
        Y = dy.sign > 0 ? y : h - 1 - y;
      } else {
        // image x runs along page y, image rows along page x
        Y = ax.sign > 0 ? x : w - 1 - x;
        X = dy.sign > 0 ? y : h - 1 - y;
      }
      out[Y * W + X] = gray[y * w + x];
    }
  }
  return { gray: out, w: W, h: H, box };
}

// ------------------------------------------------------------------------------------ cleaning

/** Bilinear resampling of a grey image to W × H. */
function resample(gray, w, h, W, H) {
  const out = new Uint8Array(W * H);
  const sx = w / W;
  const sy = h / H;
  if (sx >= 2 || sy >= 2) {
    // Shrinking a lot: average the source box of each output pixel.
    for (let Y = 0; Y < H; Y++) {
      const y0 = Math.floor(Y * sy);
      const y1 = Math.max(y0 + 1, Math.floor((Y + 1) * sy));
      for (let X = 0; X < W; X++) {
        const x0 = Math.floor(X * sx);
        const x1 = Math.max(x0 + 1, Math.floor((X + 1) * sx));
        let s = 0;
        for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) s += gray[y * w + x];
        out[Y * W + X] = s / ((y1 - y0) * (x1 - x0));
      }
    }
    return out;
  }
  for (let Y = 0; Y < H; Y++) {
    const fy = Math.min(h - 1, Math.max(0, (Y + 0.5) * sy - 0.5));
    const y0 = Math.floor(fy);
    const y1 = Math.min(h - 1, y0 + 1);
    const ty = fy - y0;
    for (let X = 0; X < W; X++) {
      const fx = Math.min(w - 1, Math.max(0, (X + 0.5) * sx - 0.5));
      const x0 = Math.floor(fx);
      const x1 = Math.min(w - 1, x0 + 1);
      const tx = fx - x0;
      const a = gray[y0 * w + x0] * (1 - tx) + gray[y0 * w + x1] * tx;
      const b = gray[y1 * w + x0] * (1 - tx) + gray[y1 * w + x1] * tx;
      out[Y * W + X] = a * (1 - ty) + b * ty;
    }
  }
  return out;
}

/**
 * Impulse noise removed: a pixel much darker than all of its 8 neighbours (or much lighter) takes
 * the nearest of their values. Edges and strokes keep their pixels (each has a neighbour alike).
 */
function despeckle(gray, w, h) {
  const out = gray.slice();
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      const a = gray[i - w - 1], b = gray[i - w], c = gray[i - w + 1], d = gray[i - 1], e = gray[i + 1], f = gray[i + w - 1], g = gray[i + w], k = gray[i + w + 1];
      const lo = Math.min(a, b, c, d, e, f, g, k);
      const hi = Math.max(a, b, c, d, e, f, g, k);
      const p = gray[i];
      if (p < lo - 48) out[i] = lo;
      else if (p > hi + 48) out[i] = hi;
    }
  }
  return out;
}

/** Otsu's threshold of a grey image. */
function otsu(gray) {
  const hist = new Float64Array(256);
  for (let i = 0; i < gray.length; i++) hist[gray[i]]++;
  const n = gray.length;
  let sum = 0;
  for (let t = 0; t < 256; t++) sum += t * hist[t];
  let sumB = 0;
  let wB = 0;
  let best = 0;
  let at = 128;
  for (let t = 0; t < 256; t++) {
    wB += hist[t];
    if (!wB) continue;
    const wF = n - wB;
    if (!wF) break;
    sumB += t * hist[t];
    const mB = sumB / wB;
    const mF = (sum - sumB) / wF;
    const between = wB * wF * (mB - mF) * (mB - mF);
    if (between > best) {
      best = between;
      at = t;
    }
  }
  return at;
}

/** The skew of the text rows in degrees (positive: rows fall to the right), within ±6°. */
function skewOf(ink, w, h) {
  // Ink pixels of a 4× reduced image.
  const f = 4;
  const pts = [];
  for (let y = 0; y < h; y += f) for (let x = 0; x < w; x += f) if (ink[y * w + x]) pts.push(x / f, y / f);
  if (pts.length < 200) return 0;
  const rows = Math.ceil(h / f) + Math.ceil(w / f) + 2;
  const bins = new Float64Array(rows * 2);
  const score = (deg) => {
    const t = Math.tan((deg * Math.PI) / 180);
    bins.fill(0);
    const off = rows;
    for (let i = 0; i < pts.length; i += 2) bins[Math.round(pts[i + 1] - pts[i] * t) + off]++;
    let s = 0;
    for (let i = 0; i < bins.length; i++) s += bins[i] * bins[i];
    return s;
  };
  let best = 0;
  let bestScore = -1;
  for (let d = -6; d <= 6.001; d += 0.25) {
    const s = score(d);
    if (s > bestScore) (bestScore = s), (best = d);
  }
  const c = best;
  for (let d = c - 0.25; d <= c + 0.25; d += 0.05) {
    const s = score(d);
    if (s > bestScore) (bestScore = s), (best = d);
  }
  return best;
}

/** The grey image turned by -deg about its centre (white outside). Also makes the test scans' skew. */
export function rotate(gray, w, h, deg) {
  const out = new Uint8Array(w * h).fill(255);
  const r = (deg * Math.PI) / 180;
  const cos = Math.cos(r);
  const sin = Math.sin(r);
  const cx = w / 2;
  const cy = h / 2;
  for (let Y = 0; Y < h; Y++) {
    const dy = Y - cy;
    for (let X = 0; X < w; X++) {
      const dx = X - cx;
      // Source of the output pixel: turned by +deg.
      const sx = cx + dx * cos - dy * sin;
      const sy = cy + dx * sin + dy * cos;
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      if (x0 < 0 || y0 < 0 || x0 + 1 >= w || y0 + 1 >= h) continue;
      const tx = sx - x0;
      const ty = sy - y0;
      const i = y0 * w + x0;
      const a = gray[i] * (1 - tx) + gray[i + 1] * tx;
      const b = gray[i + w] * (1 - tx) + gray[i + w + 1] * tx;
      out[Y * w + X] = a * (1 - ty) + b * ty;
    }
  }
  return out;
}

/** Binary ink (1) of a grey image: Otsu threshold, specks removed, ruled lines erased. */
function clean(gray, w, h, dpi) {
  const t = otsu(gray);
  const ink = new Uint8Array(w * h);
  for (let i = 0; i < ink.length; i++) ink[i] = gray[i] <= t ? 1 : 0;
  // Specks: connected blots of ink of at most 2 pixels at 300 dpi, and of 3 with no other ink within
  // a 40th of an inch (larger ones may be a decimal point: a period has about 10 at 8 pt).
  const out = ink.slice();
  const area = (dpi / 300) * (dpi / 300);
  const tiny = Math.max(1, Math.round(area * 2));
  const maxSpeck = Math.max(3, Math.round(area * 3));
  const reach = Math.max(2, Math.round(dpi / 40));
  const seen = new Uint8Array(w * h);
  // (Grown as needed: a blot rarely holds more than a glyph's pixels, and a page-sized stack is 4
  // bytes a pixel held while tesseract's own memory is at its largest.)
  let stack = new Int32Array(1 << 16);
  const blot = [];
  const alone = (blot) => {
    let x0 = w;
    let x1 = 0;
    let y0 = h;
    let y1 = 0;
    for (const i of blot) {
      const x = i % w;
      const y = (i - x) / w;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
    let inBox = 0;
    for (let y = Math.max(0, y0 - reach); y <= Math.min(h - 1, y1 + reach); y++) for (let x = Math.max(0, x0 - reach); x <= Math.min(w - 1, x1 + reach); x++) inBox += ink[y * w + x];
    return inBox <= blot.length;
  };
  for (let start = 0; start < ink.length; start++) {
    if (!ink[start] || seen[start]) continue;
    let sp = 0;
    stack[sp++] = start;
    seen[start] = 1;
    blot.length = 0;
    let big = false;
    while (sp) {
      const i = stack[--sp];
      if (!big) {
        blot.push(i);
        if (blot.length > maxSpeck) big = true;
      }
      const x = i % w;
      const y0 = i - x;
      for (let dy = -w; dy <= w; dy += w) {
        const row = y0 + dy;
        if (row < 0 || row >= ink.length) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const xx = x + dx;
          if (xx < 0 || xx >= w) continue;
          const j = row + xx;
          if (ink[j] && !seen[j]) {
            seen[j] = 1;
            if (sp === stack.length) {
              const more = new Int32Array(stack.length * 2);
              more.set(stack);
              stack = more;
            }
            stack[sp++] = j;
          }
        }
      }
    }
    if (!big && (blot.length <= tiny || alone(blot))) for (const i of blot) out[i] = 0;
  }
  // Ruled lines: runs of ink longer than 0.4 in. across or down (no glyph has one), through gaps of
  // a few pixels (noise, a broken print), erased with the pixel rows beside them that carry ink.
  const long = Math.round(dpi * 0.4);
  const gapMax = Math.max(2, Math.round(dpi / 100));
  // A broken line (noise, a faint print): gaps up to a 50th of an inch, three quarters ink, and
  // thin: the pixel rows a 75th of an inch beside it are mostly paper (a row through text is not).
  const gapBroken = Math.max(3, Math.round(dpi / 50));
  const side = Math.max(2, Math.round(dpi / 75));
  const erase = new Uint8Array(w * h);
  // Rows that carry a horizontal rule, with the columns it spans (for its remnants, below).
  const ruleFrom = new Int32Array(h).fill(w);
  const ruleTo = new Int32Array(h).fill(-1);
  const ruled = (y, x0, x1) => {
    if (x0 < ruleFrom[y]) ruleFrom[y] = x0;
    if (x1 > ruleTo[y]) ruleTo[y] = x1;
  };
  const scan = (n, len, at, lines) => {
    // `at(line, k)`: the index of pixel k of line n (of `lines`).
    const mark = (start, last, count) => {
      const extent = last - start + 1;
      if (extent < long) return;
      let broken = false;
      for (let j = start, gap = 0; j <= last; j++) {
        if (out[at(n, j)]) gap = 0;
        else if (++gap > gapMax) broken = true;
      }
      if (broken) {
        if (count < extent * 0.75) return;
        let beside = 0;
        for (let j = start; j <= last; j++) beside += (n >= side && out[at(n - side, j)] ? 1 : 0) + (n + side < lines && out[at(n + side, j)] ? 1 : 0);
        if (beside > extent * 0.5) return;
      }
      for (let j = start; j <= last; j++) if (out[at(n, j)]) erase[at(n, j)] = 1;
      if (lines === h) ruled(n, start, last);
    };
    let start = -1;
    let last = -1;
    let count = 0;
    for (let k = 0; k < len; k++) {
      if (!out[at(n, k)]) continue;
      if (start < 0 || k - last > gapBroken + 1) {
        if (start >= 0) mark(start, last, count);
        start = k;
        count = 0;
      }
      last = k;
      count++;
    }
    if (start >= 0) mark(start, last, count);
  };
  for (let y = 0; y < h; y++) scan(y, w, (n, k) => n * w + k, h);
  for (let x = 0; x < w; x++) scan(x, h, (n, k) => k * w + n, w);
  // A thin rule printed faint (grey, half of it lighter than the threshold), broken into dashes by
  // noise, drifting a pixel up or down across the page (a scan turned a little): three pixel rows
  // taken together, with anything darker than halfway between the threshold and paper, gaps up to
  // a 50th of an inch, three quarters ink, paper beyond them on both sides; its ink is erased.
  const faint = (t + 255) >> 1;
  const band = new Uint8Array(w);
  for (let y = 1; y + 1 < h; y++) {
    for (let x = 0; x < w; x++) {
      const a = (y - 1) * w + x;
      band[x] = (gray[a] <= faint && !erase[a]) || (gray[a + w] <= faint && !erase[a + w]) || (gray[a + 2 * w] <= faint && !erase[a + 2 * w]) ? 1 : 0;
    }
    let start = -1;
    let last = -1;
    let count = 0;
    const mark = () => {
      const extent = last - start + 1;
      if (extent < long || count < extent * 0.75) return;
      let beside = 0;
      for (let j = start; j <= last; j++) beside += (y - side - 1 >= 0 && out[(y - side - 1) * w + j] ? 1 : 0) + (y + side + 1 < h && out[(y + side + 1) * w + j] ? 1 : 0);
      if (beside > extent * 0.25) return;
      // A column where ink goes on just above or below the three rows is a glyph touching the rule
      // (a period, a comma, a descender): its pixels stay.
      for (let j = start; j <= last; j++) {
        if ((y >= 2 && out[(y - 2) * w + j]) || (y + 2 < h && out[(y + 2) * w + j])) continue;
        for (let yy = y - 1; yy <= y + 1; yy++) if (out[yy * w + j]) erase[yy * w + j] = 1;
      }
      ruled(y, start, last);
    };
    for (let x = 0; x < w; x++) {
      if (!band[x]) continue;
      if (start < 0 || x - last > gapBroken + 1) {
        if (start >= 0) mark();
        start = x;
        count = 0;
      }
      last = x;
      count++;
    }
    if (start >= 0) mark();
  }
  // Where a horizontal rule crosses a stroke (ink just above and just below it), the stroke keeps
  // its pixels: the text is not cut in two.
  for (let x = 0; x < w; x++) {
    let y = 0;
    while (y < h) {
      if (!erase[y * w + x]) {
        y++;
        continue;
      }
      const y0 = y;
      while (y < h && erase[y * w + x]) y++;
      if (y0 > 0 && y < h && out[(y0 - 1) * w + x] && out[y * w + x] && y - y0 <= dpi / 30) for (let k = y0; k < y; k++) erase[k * w + x] = 0;
    }
  }
  for (let i = 0; i < out.length; i++) if (erase[i]) out[i] = 0;
  ruleRemnants(out, w, h, ruleFrom, ruleTo, dpi);
  out.threshold = t;
  return out;
}

/**
 * What a ruled line leaves behind where noise broke it or it ran too close to a row of text for its
 * pieces to be told from the text (a piece between two words, a dash above a capital): every blot
 * of ink lying wholly within the rows of a rule found on the page (a rule across a table: at
 * least an inch and a half long and at most a 75th of an inch thick; with two pixels of slack above
 * and below), within the columns the rule spans, is erased. A
 * glyph that touches the rule reaches beyond those rows and keeps all of its pixels.
 */
export function ruleRemnants(ink, w, h, ruleFrom, ruleTo, dpi) {
  const thin = Math.max(3, Math.round(dpi / 75));
  const wide = Math.round(dpi * 1.5);
  let seen = null;
  const stack = [];
  const blot = [];
  for (let y = 0; y < h; y++) {
    if (ruleTo[y] < 0) continue;
    // The rule's band: its consecutive rows, two more above and below (a turned scan's rule drifts
    // by a pixel or two across the page even when straightened).
    let y1 = y;
    let x0 = ruleFrom[y];
    let x1 = ruleTo[y];
    while (y1 + 1 < h && ruleTo[y1 + 1] >= 0) {
      y1++;
      x0 = Math.min(x0, ruleFrom[y1]);
      x1 = Math.max(x1, ruleTo[y1]);
    }
    const top = Math.max(0, y - 2);
    const bottom = Math.min(h - 1, y1 + 2);
    if (y1 - y + 1 <= thin && x1 - x0 >= wide) {
      seen ??= new Uint8Array(w * h);
      for (let yy = top; yy <= bottom; yy++) {
        for (let x = x0; x <= x1; x++) {
          const start = yy * w + x;
          if (!ink[start] || seen[start]) continue;
          stack.length = 0;
          blot.length = 0;
          stack.push(start);
          seen[start] = 1;
          let inside = true;
          while (stack.length) {
            const i = stack.pop();
            blot.push(i);
            const cx = i % w;
            const cy = (i - cx) / w;
            if (cy < top || cy > bottom || cx < x0 || cx > x1) inside = false;
            for (let dy = -1; dy <= 1; dy++) {
              for (let dx = -1; dx <= 1; dx++) {
                const nx = cx + dx;
                const ny = cy + dy;
                if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
                const j = ny * w + nx;
                if (ink[j] && !seen[j]) {
                  seen[j] = 1;
                  stack.push(j);
                }
              }
            }
          }
          if (inside) for (const i of blot) ink[i] = 0;
        }
      }
    }
    y = y1;
  }
}

/**
 * What ink lies in columns [x0, x1) between rows y0 and y1, wider than a sliver: none, a dash (a
 * stroke thin and wide) or something else.
 */
function marksIn(ink, w, x0, x1, y0, y1, lh, midOnly = false) {
  if (x1 - x0 < Math.max(2, lh * 0.12)) return 'none';
  let top = Infinity;
  let bottom = -1;
  let left = Infinity;
  let right = -1;
  let n = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      if (!ink[y * w + x]) continue;
      n++;
      if (y < top) top = y;
      if (y > bottom) bottom = y;
      if (x < left) left = x;
      if (x > right) right = x;
    }
  }
  if (n < Math.max(3, lh * lh * 0.004)) return 'none';
  const hh = bottom - top + 1;
  const ww = right - left + 1;
  // (`midOnly`: a dash must lie across the middle of the rows, where a minus sign is printed; a
  // thin stroke at the top or bottom is a rule's remnant.)
  const mid = (top + bottom) / 2;
  const middle = !midOnly || (mid >= y0 + (y1 - y0) * 0.3 && mid <= y0 + (y1 - y0) * 0.75);
  if (hh <= lh * 0.2 && ww >= hh * 1.5 && ww >= lh * 0.15) return middle ? 'dash' : 'other';
  return ww >= lh * 0.25 && n >= lh * lh * 0.01 ? 'other' : 'none';
}

/** A grey image as a PGM file. */
function pgmGray(gray, w, h) {
  return Buffer.concat([Buffer.from(`P5\n${w} ${h}\n255\n`, 'latin1'), Buffer.from(gray.buffer, gray.byteOffset, gray.byteLength)]);
}

/** A binary image as a PGM file (tesseract's image reader takes PNM). */
function pgm(ink, w, h) {
  const head = Buffer.from(`P5\n${w} ${h}\n255\n`, 'latin1');
  const body = Buffer.allocUnsafe(w * h);
  for (let i = 0; i < ink.length; i++) body[i] = ink[i] ? 0 : 255;
  return Buffer.concat([head, body]);
}

// ------------------------------------------------------------------------------------ reading

/** Tuning of the cleaning (benchmarks compare them): the image tesseract gets, and its resolution. */
export const knobs = { debug: false, psm: '3', binary: false, minDpi: 240, maxDpi: 360, targetDpi: 300, dump: '', rereadBelow: 80 };
let dumped = 0;

/**
 * A date's slash read as a 1 ("10117" for 10/17): corrected only for a word that starts an item in
 * a column of at least three dates printed MM/DD (same left edge within 2 pt), where a five-digit
 * number whose middle digit is 1 and whose ends are a month and a day is that date; and a slash
 * lost ("1117" for 11/17) in a column of at least three dates printed with two-digit months and
 * days, where a four-digit number that is a month and a day is that date. The reconciliation still
 * checks every row it gives.
 */
export function fixDates(items) {
  const DATE = /^(\d{1,2})\/(\d{1,2})(\/\d{2,4})?(\s|$)/;
  const cols = new Map();
  for (const it of items) if (DATE.test(it.s)) cols.set(Math.round(it.x / 2), (cols.get(Math.round(it.x / 2)) ?? 0) + 1);
  const inColumn = (x) => [-1, 0, 1].reduce((n, d) => n + (cols.get(Math.round(x / 2) + d) ?? 0), 0) >= 3;
  // Dates printed with two-digit months and days (MM/DD): the slash may also be lost ("1117").
  const twoDigit = new Map();
  for (const it of items) if (/^\d\d\/\d\d(\s|$)/.test(it.s)) twoDigit.set(Math.round(it.x / 2), (twoDigit.get(Math.round(it.x / 2)) ?? 0) + 1);
  const inTwoDigitColumn = (x) => [-1, 0, 1].reduce((n, d) => n + (twoDigit.get(Math.round(x / 2) + d) ?? 0), 0) >= 3;
  for (const it of items) {
    const m = /^(0[1-9]|1[0-2])1(0[1-9]|[12]\d|3[01])(\s|$)/.exec(it.s);
    if (m && inColumn(it.x)) it.s = `${m[1]}/${m[2]}${it.s.slice(m[1].length + 1 + m[2].length)}`;
    const n = /^(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])(\s|$)/.exec(it.s);
    if (n && inTwoDigitColumn(it.x)) it.s = `${n[1]}/${n[2]}${it.s.slice(4)}`;
  }
}

/**
 * A "word" that is most likely a speck or a fragment of a line read as a mark: no letter or digit,
 * and not confidently a sign a statement prints alone ($, -, *, #, &, +, =, /).
 */
function speck(s, confidence) {
  if (/[A-Za-z0-9]/.test(s)) return false;
  return /^[-$*#&+=/]$/.test(s) ? confidence < 50 : confidence < 90;
}

const MONTH_GLUED = /^(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\.?(\d{1,2})(,?)$/i;
/**
 * Specks read as marks at a word's edge, and two words read as one, undone where print cannot have
 * them: a quote, backtick, underscore or tilde before a word's first letter or digit (or after its
 * last), a dash before a date (a date is never signed), a month's name glued to its day ("Apr10").
 * An amount is never changed here: one with a stray mark stays as read, doubtful (`doubtfulAmount`),
 * for the second reading to settle.
 */
export function strayMarks(s) {
  const bare = s.replace(/^["'`_~\u2018\u2019\u201C\u201D]+(?=[A-Za-z0-9$(])/, '').replace(/(?<=[A-Za-z0-9.)])["'`_~\u2018\u2019\u201C\u201D]+$/, '');
  if (AMOUNT.test(bare.replace(/^[-\u2012-\u2015]/, '').replace(/[-\u2012-\u2015]$/, '')) && bare !== s) return s;
  const date = bare.replace(/^[-\u2012-\u2015~.,]+(?=\d{1,2}[/-]\d{1,2}([/-]\d{2,4})?$)/, '');
  const m = MONTH_GLUED.exec(date);
  return m ? `${m[1]} ${m[2]}${m[3]}` : date;
}

const STRAY_LEAD = /^["'`_~\u2018\u2019\u201C\u201D]+/;
const STRAY_TRAIL = /["'`_~\u2018\u2019\u201C\u201D]+$/;

/** An amount's value and its signs: { cents, lead, trail } (lead/trail: the marks before/after its digits), or null. */
export function amountParts(s) {
  const t = ocrText(s.replace(/\s+/g, ''));
  if (!AMOUNT.test(t)) return null;
  const m = /^([^\d]*)([\d,]*\.\d\d)([^\d]*)$/.exec(t);
  if (!m) return null;
  const sign = (x) => x.replace(/\$/g, '').replace(/[\u2012-\u2015\u2212]/g, '-');
  return { cents: Math.round(Number(m[2].replace(/,/g, '')) * 100), lead: sign(m[1]), trail: sign(m[3]) };
}

/**
 * What a doubtful amount is, from the first reading (`first`, stray marks at its edge removed) and
 * readings of it alone (`more()` gives the next one, or ''): the first reading when a second reads
 * the same value with no sign the first lacks (or, the second being no amount at all, a third); a sign where unexplained ink beside the amount is
 * (`marks`: the doubt is about a mark) when a second and a third reading agree on it and on the
 * first's value; else null: unreadable, with the values read (`amountAlternatives`) left for the
 * reconciliation to choose from, never chosen here.
 */
export async function settleAmount(first, why, marks, more) {
  const f = amountParts(first);
  if (!f) return null;
  const same = (a, b) => a && b && a.cents === b.cents && a.lead === b.lead && a.trail === b.trail;
  const r1 = amountParts(await more());
  if (r1 && r1.cents === f.cents) {
    if (same(r1, f)) return first;
    if (why !== 'mark' && !r1.lead && !r1.trail) return first;
  }
  const r2 = amountParts(await more());
  // A second reading that is no amount at all (a decimal point lost) contradicts nothing: the third decides as it would have.
  if (!r1 && r2 && r2.cents === f.cents && (same(r2, f) || (why !== 'mark' && !r2.lead && !r2.trail))) return first;
  if (why !== 'mark' || !r1 || !same(r1, r2)) return null;
  // Signs where the unexplained ink is, and only there.
  if (r1.cents !== f.cents || (r1.lead !== f.lead && !marks?.lead) || (r1.trail !== f.trail && !marks?.trail)) return null;
  return `${r1.lead}${/\$/.test(first) ? '$' : ''}${/[\d,]*\.\d\d/.exec(first)[0]}${r1.trail}`;
}

/**
 * The values an unsettled amount was read as (the first reading and the readings of it alone that
 * are amounts with the first's signs), each written as the first is (its signs, dollar sign and
 * commas): the alternatives the reconciliation may choose one from, the first reading's first.
 * When every reading of it alone has the first's value and only the signs differ, the signs read
 * are the alternatives (the first's digits with each reading's signs).
 */
export function amountAlternatives(first, reads) {
  const f = amountParts(first);
  if (!f) return [];
  const out = [first];
  const parts = reads.map(amountParts).filter(Boolean);
  // Every reading has the first's value, one or more with other signs (a speck beside the amount
  // read as a minus, or a minus not read the first time): the sign is what is in doubt, and the
  // signs read are the alternatives.
  const signOnly = parts.length > 0 && parts.every((p) => p.cents === f.cents);
  for (const p of parts) {
    let alt;
    if (signOnly) alt = ocrText(`${p.lead}${/\$/.test(first) ? '$' : ''}${/[\d,]*\.\d\d/.exec(first)[0]}${p.trail}`);
    else if ((p.lead && p.lead !== f.lead) || (p.trail && p.trail !== f.trail)) continue;
    else alt = ocrText(first.replace(/[\d,]*\.\d\d/, formatCents(p.cents, /,/.test(first))));
    if (!out.includes(alt)) out.push(alt);
  }
  return out;
}
const formatCents = (c, commas) => {
  const s = (c / 100).toFixed(2);
  return commas ? s.replace(/\B(?=(\d{3})+(?!\d))/g, ',') : s;
};

/**
 * Rows [y0, y1) of a grey image between columns x0 and x1, when they hold several bands of ink apart
 * (rows with a dark pixel, separated by rows of paper): the band with the most ink, with up to two
 * rows of paper on each side; else null.
 */
export function inkBand(gray, W, x0, x1, y0, y1) {
  const bands = [];
  let cur = null;
  for (let y = y0; y < y1; y++) {
    let n = 0;
    for (let x = x0; x < x1; x++) if (gray[y * W + x] < 128) n++;
    if (n) {
      if (!cur) bands.push((cur = { from: y, to: y + 1, ink: 0 }));
      cur.to = y + 1;
      cur.ink += n;
    } else cur = null;
  }
  if (bands.length < 2) return null;
  const best = bands.reduce((a, b) => (b.ink > a.ink ? b : a));
  return [Math.max(y0, best.from - 2), Math.min(y1, best.to + 2)];
}

/** A word cut out of the page (with room for a mark beside it), enlarged `k` times, read as one line. */
async function readCrop(worker, gray, W, H, { wd, lh, left, right }, k) {
  const bbox = wd.bbox;
  // Paper all round, as tesseract wants it: the crop sits on a white margin.
  const m = Math.round(lh * 0.5);
  const x0 = Math.max(0, bbox.x0 - left);
  const x1 = Math.min(W, bbox.x1 + right + 1);
  let y0 = Math.max(0, bbox.y0 - Math.round(lh * 0.15));
  let y1 = Math.min(H, bbox.y1 + Math.round(lh * 0.15) + 1);
  if (x1 - x0 < 4 || y1 - y0 < 4) return '';
  // Rows of ink apart from the word's own (the lines above and below, cut in when the word's box
  // was drawn too tall on a turned or noisy scan) make a one-line reading come back empty: the crop
  // keeps the band of rows that holds the most ink, with the paper around it.
  const band = inkBand(gray, W, x0, x1, y0, y1);
  if (band) [y0, y1] = band;
  const w = x1 - x0 + 2 * m;
  const h = y1 - y0 + 2 * m;
  const crop = new Uint8Array(w * h).fill(255);
  for (let y = y0; y < y1; y++) crop.set(gray.subarray(y * W + x0, y * W + x1), (y - y0 + m) * w + m);
  const big = resample(crop, w, h, w * k, h * k);
  const { data } = await worker.recognize(pgmGray(big, w * k, h * k), {}, { text: true });
  return (data.text ?? '').trim();
}

/**
 * Words ending in a dash read alone after words that are not an amount ("MOBILE DEPOSIT 6078401 -",
 * a speck after the text), without it: a sign is printed beside its amount, never after a
 * description. An amount's trailing minus ("5.00 -", "1,569.62? -") and a dash alone stay.
 */
export function strayDash(s) {
  const tail = /^(.*\S)\s[-\u2012-\u2015\u2212]$/.exec(s);
  return tail && !AMOUNT.test(tail[1].split(' ').pop().replace(/\?$/, '')) ? tail[1] : s;
}

/** An amount as printed: 1,234.56, $1,234.56, (12.00), -$5.00, 5.00-. */
const AMOUNT = /^[-\u2012-\u2015]?[$(]?\$?\d[\d,]*\.\d\d\)?[-\u2012-\u2015]?$/;

/**
 * A recognized word as print would have it: a dash read twice or as a long dash before an amount is
 * one minus sign, curly quotes are straight. Letters are never turned into digits: a misread
 * amount must stay misread, for the reconciliation to refuse it.
 */
export function ocrText(s) {
  return strayMarks(s)
    // A comma read as a period in an amount ("6.371.53"): US amounts have one decimal point.
    .replace(/^([-(]?\$?\d{1,3})((?:\.\d{3})+)(\.\d{2}\)?-?)$/, (_m, a, b, c) => a + b.replace(/\./g, ',') + c)
    .replace(/^[-\u2012-\u2015\u2212]{2,}(?=\$?\d)/, '-').replace(/^[\u2012-\u2015\u2212]$/, '-').replace(/[\u2018\u2019]/g, "'").replace(/[\u201C\u201D]/g, '"');
}
const r1 = (n) => Math.round(n * 10) / 10;

/**
 * One page image read: { width, height, items, words, lowConfidence } in page points, or null when
 * the image is too small to hold text.
 */
async function readImage(img, psm) {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
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
  if (k !== 1) {
    W = Math.max(1, Math.round(up.w * k));
    H = Math.max(1, Math.round(up.h * k));
    gray = resample(gray, up.w, up.h, W, H);
  }
  const effDpi = W / (boxW / 72);
  const th = otsu(gray);
  const rough = new Uint8Array(W * H);
  for (let i = 0; i < rough.length; i++) rough[i] = gray[i] <= th ? 1 : 0;
  const skew = skewOf(rough, W, H);
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
  if (knobs.dump) (await import('node:fs')).writeFileSync(`${knobs.dump}-${++dumped}.pgm`, knobs.binary ? pgm(ink, W, H) : pgmGray(gray, W, H));
  const worker = await tesseract();
  if (worker.psm !== psm) {
    await worker.setParameters({ tessedit_pageseg_mode: psm });
    worker.psm = psm;
  }
  const t1 = performance.now();
  const prepCpu = process.cpuUsage(c0);
  const { data } = await worker.recognize(knobs.binary ? pgm(ink, W, H) : pgmGray(gray, W, H), {}, { blocks: true, text: false });
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
          if (before === 'dash' && signWord) signWord.confidence = 100;
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
          const why = wd.marks?.lead || wd.marks?.trail ? 'mark' : core !== text ? 'stray' : wd.confidence < knobs.rereadBelow ? 'low' : null;
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
    await worker.setParameters({ tessedit_pageseg_mode: '7', tessedit_char_whitelist: '0123456789.,$()-' });
    worker.psm = '7';
    try {
      for (const d of doubtful) {
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
  const items = [];
  let words = 0;
  let low = 0;
  for (const b of data.blocks ?? []) {
    for (const p of b.paragraphs ?? []) {
      for (const l of p.lines ?? []) {
        const bl = l.baseline;
        const slope = bl && bl.x1 !== bl.x0 ? (bl.y1 - bl.y0) / (bl.x1 - bl.x0) : 0;
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
          const base = bl ? bl.y0 + slope * (cx - bl.x0) : run.y1;
          items.push({ x: r1(up.box.x0 + run.x0 * sx), y: r1(up.box.y0 + base * sy), w: r1((run.x1 - run.x0) * sx), h: r1(size * sy), s: run.s, ...(run.alt.length ? { alt: run.alt } : {}) });
          run = null;
        };
        for (const wd of l.words ?? []) {
          const s = ocrText((wd.text ?? '').trim());
          if (!s || speck(s, wd.confidence)) continue;
          // An unsettled amount: the word as written here ("1,234.56?"), then what it may be.
          const alt = wd.alts && wd.alts[0] === s ? wd.alts : null;
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
  return { items, words, low, reread, skew, dpi: Math.round(dpi), prepMs: Math.round(t1 - t0), ocrMs: Math.round(performance.now() - t1), prepCpuMs: Math.round((prepCpu.user + prepCpu.system) / 1000), rereadCpuMs: Math.round((rereadCpu.user + rereadCpu.system) / 1000) };
}

/**
 * OCR of every page of a PDF without a text layer: { ok, pages, items: [{ width, height, items }],
 * stats } or a failure code. `pdf` is an open pdf.js document; `deadline` the time (ms since epoch)
 * after which no new page is started (the parent kills the process at its own limit anyway).
 */
export async function ocrPdf(pdf, OPS, { maxPages, layout = 'auto' }) {
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
    const img = await pageImage(page, OPS);
    const t = performance.now();
    const cpu = process.cpuUsage();
    const r = img ? await readImage(img, psm) : null;
    const used = process.cpuUsage(cpu);
    page.cleanup();
    if (img) images++;
    out.push({ width: r1(viewport.width), height: r1(viewport.height), items: r ? r.items : [] });
    stats.push({ ms: Math.round(performance.now() - t), cpuMs: Math.round((used.user + used.system) / 1000), prepMs: r?.prepMs ?? 0, ocrMs: r?.ocrMs ?? 0, prepCpuMs: r?.prepCpuMs ?? 0, rereadCpuMs: r?.rereadCpuMs ?? 0, words: r?.words ?? 0, low: r?.low ?? 0, reread: r?.reread ?? 0, skew: r?.skew ?? 0, dpi: r?.dpi ?? 0 });
  }
  if (!images) return { ok: false, code: 'no_images', pages };
  return { ok: true, pages, items: out, stats };
}

/** The pixel size of a PNG or JPEG from its header, or null. */
export function imageSize(bytes) {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length > 24 && b.readUInt32BE(0) === 0x89504e47 && b.toString('latin1', 12, 16) === 'IHDR') return { type: 'png', w: b.readUInt32BE(16), h: b.readUInt32BE(20) };
  if (b.length > 4 && b[0] === 0xff && b[1] === 0xd8) {
    let i = 2;
    while (i + 9 < b.length) {
      if (b[i] !== 0xff) return null;
      const marker = b[i + 1];
      if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
        i += 2;
        continue;
      }
      const len = b.readUInt16BE(i + 2);
      // SOF0..SOF15 except DHT (C4), JPG (C8), DAC (CC)
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return { type: 'jpeg', h: b.readUInt16BE(i + 5), w: b.readUInt16BE(i + 7) };
      i += 2 + len;
    }
  }
  return null;
}

/** A PNG or JPEG as a one-page PDF: a Letter-width page (landscape when the image is) covered by it. */
export async function imagePdf(bytes, type) {
  const { PDFDocument } = await import('pdf-lib');
  const doc = await PDFDocument.create();
  // A copy of its own: pdf-lib reads the bytes through their ArrayBuffer from offset 0.
  const own = new Uint8Array(bytes);
  const img = type === 'png' ? await doc.embedPng(own) : await doc.embedJpg(own);
  const pw = img.width > img.height ? 792 : 612;
  const ph = (pw * img.height) / img.width;
  const page = doc.addPage([pw, ph]);
  page.drawImage(img, { x: 0, y: 0, width: pw, height: ph });
  return doc.save({ useObjectStreams: false });
}
