// Text the page layout left out, for the OCR (../ocr.mjs): tesseract's own page segmentation may take
// a column of a table for an image on a noisy scan (every date of a 150 dpi page, a run of debits)
// and read nothing there. Ink that no recognized word covers is found, cut out by columns (the words
// already read painted out), read as a block of lines, and its words that hold a digit are added to
// the page as lines of their own (the reader puts them on their rows by their baselines). What they
// say is checked as any word is: an amount by the reconciliation, a doubtful one read again.
import { pgmGray } from './image.mjs';

/**
 * Regions of ink no word covers: the page cut into cells of `g` pixels, a cell with ink (at least 3
 * pixels) that no box (each grown by half a cell) touches is uncovered; uncovered cells touching
 * (8-neighbours) form a region, and regions whose columns overlap are one strip (a column of a
 * table, its rows apart). Strips of fewer than `minCells` cells are left (a speck, a rule's
 * remnant). Returns [{ x0, y0, x1, y1, parts }] in pixels (parts: its regions, with their cells), x1
 * and y1 exclusive, top to bottom.
 */
export function uncoveredStrips(ink, W, H, boxes, g, minCells = 6) {
  const cw = Math.ceil(W / g);
  const ch = Math.ceil(H / g);
  const inked = new Uint8Array(cw * ch);
  for (let y = 0; y < H; y++) {
    const row = y * W;
    const cy = ((y / g) | 0) * cw;
    for (let x = 0; x < W; x++) if (ink[row + x]) inked[cy + ((x / g) | 0)]++;
  }
  const covered = new Uint8Array(cw * ch);
  const half = g / 2;
  for (const b of boxes) {
    const cx0 = Math.max(0, Math.floor((b.x0 - half) / g));
    const cx1 = Math.min(cw - 1, Math.floor((b.x1 + half) / g));
    const cy0 = Math.max(0, Math.floor((b.y0 - half) / g));
    const cy1 = Math.min(ch - 1, Math.floor((b.y1 + half) / g));
    for (let cy = cy0; cy <= cy1; cy++) for (let cx = cx0; cx <= cx1; cx++) covered[cy * cw + cx] = 1;
  }
  const open = (i) => inked[i] >= 3 && !covered[i];
  const seen = new Uint8Array(cw * ch);
  const regions = [];
  for (let start = 0; start < cw * ch; start++) {
    if (seen[start] || !open(start)) continue;
    const r = { x0: cw, y0: ch, x1: -1, y1: -1, cells: 0 };
    const stack = [start];
    seen[start] = 1;
    while (stack.length) {
      const i = stack.pop();
      const cx = i % cw;
      const cy = (i - cx) / cw;
      r.cells++;
      r.x0 = Math.min(r.x0, cx);
      r.x1 = Math.max(r.x1, cx);
      r.y0 = Math.min(r.y0, cy);
      r.y1 = Math.max(r.y1, cy);
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const nx = cx + dx;
          const ny = cy + dy;
          if (nx < 0 || ny < 0 || nx >= cw || ny >= ch) continue;
          const j = ny * cw + nx;
          if (!seen[j] && open(j)) {
            seen[j] = 1;
            stack.push(j);
          }
        }
      }
    }
    regions.push(r);
  }
  // Regions whose columns overlap: one strip.
  regions.sort((a, b) => a.x0 - b.x0);
  const strips = [];
  for (const r of regions) {
    const s = strips.find((t) => r.x0 <= t.x1 && r.x1 >= t.x0);
    if (s) {
      s.x0 = Math.min(s.x0, r.x0);
      s.x1 = Math.max(s.x1, r.x1);
      s.y0 = Math.min(s.y0, r.y0);
      s.y1 = Math.max(s.y1, r.y1);
      s.cells += r.cells;
      s.parts.push(r);
    } else strips.push({ ...r, parts: [r] });
  }
  return strips
    .filter((s) => s.cells >= minCells)
    .sort((a, b) => a.y0 - b.y0)
    .map((s) => ({ x0: s.x0 * g, y0: s.y0 * g, x1: Math.min(W, (s.x1 + 1) * g), y1: Math.min(H, (s.y1 + 1) * g), parts: s.parts.map((p) => ({ x0: p.x0 * g, y0: p.y0 * g, x1: Math.min(W, (p.x1 + 1) * g), y1: Math.min(H, (p.y1 + 1) * g), cells: p.cells })) }));
}

/** Whether a recovered word is kept: it holds a digit (a date, an amount, a number) and was read with some confidence. */
export const keepRecovered = (text, confidence) => /\d/.test(text ?? '') && confidence >= 50;

/**
 * The words of every strip of uncovered ink (`uncoveredStrips`), read from `gray` with the words
 * already read (`data`'s) and everything outside the strip's regions painted white, as a block of
 * lines (psm 6), moved back to the page: a block `{ paragraphs: [{ lines }] }` for `data.blocks`, or
 * null when nothing was recovered.
 */
export async function recoverBlock(worker, gray, ink, W, H, data, lh) {
  const boxes = [];
  for (const b of data.blocks ?? []) for (const p of b.paragraphs ?? []) for (const l of p.lines ?? []) for (const w of l.words ?? []) boxes.push(w.bbox);
  const g = Math.max(4, Math.round(lh / 3));
  const strips = uncoveredStrips(ink, W, H, boxes, g);
  if (!strips.length) return null;
  const lines = [];
  for (const s of strips) {
    const m = Math.round(lh * 0.5);
    const w = s.x1 - s.x0 + 2 * m;
    const h = s.y1 - s.y0 + 2 * m;
    const crop = new Uint8Array(w * h).fill(255);
    // Only the regions' own pixels: a word already read in the same columns stays out.
    for (const p of s.parts) for (let y = p.y0; y < p.y1; y++) crop.set(gray.subarray(y * W + p.x0, y * W + p.x1), (y - s.y0 + m) * w + (p.x0 - s.x0 + m));
    if (worker.psm !== '6') {
      await worker.setParameters({ tessedit_pageseg_mode: '6' });
      worker.psm = '6';
    }
    const { data: got } = await worker.recognize(pgmGray(crop, w, h), {}, { blocks: true, text: false });
    const dx = s.x0 - m;
    const dy = s.y0 - m;
    const move = (b) => ({ x0: b.x0 + dx, y0: b.y0 + dy, x1: b.x1 + dx, y1: b.y1 + dy });
    for (const b of got.blocks ?? []) {
      for (const p of b.paragraphs ?? []) {
        for (const l of p.lines ?? []) {
          const words = (l.words ?? []).filter((x) => keepRecovered(x.text, x.confidence)).map((x) => ({ ...x, bbox: move(x.bbox), symbols: (x.symbols ?? []).map((y) => ({ ...y, bbox: move(y.bbox) })), recovered: true }));
          if (!words.length) continue;
          lines.push({ ...l, bbox: move(l.bbox), baseline: l.baseline ? { ...l.baseline, x0: l.baseline.x0 + dx, x1: l.baseline.x1 + dx, y0: l.baseline.y0 + dy, y1: l.baseline.y1 + dy } : l.baseline, words });
        }
      }
    }
  }
  return lines.length ? { paragraphs: [{ lines }], recovered: true } : null;
}
