// Ruled lines' remnants and marks beside words for the OCR (../ocr.mjs).

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
export function marksIn(ink, w, x0, x1, y0, y1, lh, midOnly = false) {
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

/**
 * Where a line's letters stand, from its ink: the lowest row, within the boxes of the words kept on
 * the line (`boxes`, x1 and y1 inclusive), that holds at least a third of the ink of the line's
 * fullest row. A speck below the letters (or glued into a word's box), a descender or a comma's
 * tail put a few pixels on a row, never a third of a row of letters, so they do not lower it (the
 * recognizer's own baseline of a line fits every blot in its box, a speck too). Null without ink.
 */
export function inkBaseline(ink, w, boxes) {
  if (!boxes.length) return null;
  const y0 = Math.max(0, Math.min(...boxes.map((b) => b.y0)));
  const y1 = Math.min(Math.floor(ink.length / w) - 1, Math.max(...boxes.map((b) => b.y1)));
  if (y1 < y0) return null;
  const rows = new Uint32Array(y1 - y0 + 1);
  for (const b of boxes) {
    for (let y = Math.max(y0, b.y0); y <= Math.min(y1, b.y1); y++) {
      let n = 0;
      for (let x = Math.max(0, b.x0); x <= Math.min(w - 1, b.x1); x++) n += ink[y * w + x];
      rows[y - y0] += n;
    }
  }
  let max = 0;
  for (const n of rows) if (n > max) max = n;
  if (!max) return null;
  for (let i = rows.length - 1; i >= 0; i--) if (rows[i] * 3 >= max) return y0 + i;
  return null;
}

/**
 * How far to raise a line the recognizer put at `at` (its baseline's row at the line's middle): by
 * the distance to where its words' ink stands (`inkBaseline`) when that is more than a fifth of the
 * page's usual line height `lineH` higher (a speck fitted into the baseline), else 0 (the
 * recognizer's baseline and the ink agree within a pixel or two on a clean line).
 */
export function baselineLift(ink, w, boxes, at, lineH) {
  const ib = inkBaseline(ink, w, boxes);
  return ib !== null && at - ib > lineH * 0.2 ? at - ib : 0;
}
