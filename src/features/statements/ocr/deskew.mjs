// Skew of a page image for the OCR (../ocr.mjs): the angle that makes text rows sharpest, and the
// image turned by it.

/** The skew of the text rows in degrees (positive: rows fall to the right), within ±6°. */
export function skewOf(ink, w, h) {
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
