// Cleaning of a page image for the OCR (../ocr.mjs): resampling, impulse noise, Otsu's threshold,
// and the binary ink with specks and ruled lines removed.
import { ruleRemnants } from './rules.mjs';

/** Bilinear resampling of a grey image to W × H. */
export function resample(gray, w, h, W, H) {
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
export function despeckle(gray, w, h) {
  const out = gray.slice();
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      const p = gray[i];
      const b = gray[i - w];
      // (The pixel can only be far from all of its neighbours if it is far from this one: most
      // pixels end here, without the other seven.)
      if (p - b <= 48 && b - p <= 48) continue;
      const a = gray[i - w - 1], c = gray[i - w + 1], d = gray[i - 1], e = gray[i + 1], f = gray[i + w - 1], g = gray[i + w], k = gray[i + w + 1];
      const lo = Math.min(a, b, c, d, e, f, g, k);
      const hi = Math.max(a, b, c, d, e, f, g, k);
      if (p < lo - 48) out[i] = lo;
      else if (p > hi + 48) out[i] = hi;
    }
  }
  return out;
}

/** Otsu's threshold of a grey image. */
export function otsu(gray) {
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

/** Binary ink (1) of a grey image: Otsu threshold, specks removed, ruled lines erased. */
export function clean(gray, w, h, dpi) {
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
