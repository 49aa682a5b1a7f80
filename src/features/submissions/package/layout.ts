// Page geometry, colours and text fitting: what Helvetica can encode, wrapped and truncated to its slot.
import { rgb, type PDFFont } from 'pdf-lib';

// Layout constants (points; US Letter)

export const LETTER: [number, number] = [612, 792];
export const MARGIN = 54;
export const FOOTER_STRIP = 18; // height of the stamp strip added below every document page
export const OWN_FOOTER = 36; // space kept free at the bottom of the pages we lay out, for the stamp
export const FOOTER_SIZE = 8;
export const INK = rgb(0.1, 0.1, 0.12);
export const MUTED = rgb(0.42, 0.44, 0.48);
export const RULE = rgb(0.8, 0.82, 0.85);
export const BAND = rgb(0.95, 0.96, 0.97);
export const WHITE = rgb(1, 1, 1);

// Text: encode what Helvetica can, replace the rest, wrap and truncate

export type Fonts = { regular: PDFFont; bold: PDFFont; charset: Set<number> };

const MAX_FIELD_CHARS = 2000; // enough for any slot on the page; bounds the wrapping work

/** Text the standard fonts can encode: one line, controls to spaces, unencodable characters to '?'. */
export function toWinAnsi(text: string, charset: Set<number>): string {
  let out = '';
  for (const ch of String(text ?? '').slice(0, MAX_FIELD_CHARS * 2).normalize('NFC')) {
    const cp = ch.codePointAt(0)!;
    if (/[\s\p{Cc}]/u.test(ch)) {
      out += ' ';
    } else if (/[\p{Cf}\p{M}]/u.test(ch)) {
      // zero-width joiners, variation selectors, marks that did not compose: nothing to draw
    } else if (charset.has(cp)) {
      out += ch;
    } else {
      // Keep what decomposition can express (ŵ -> w, ﬁ -> fi); else mark the gap once.
      const base = [...ch.normalize('NFKD')].filter((c) => !/\p{M}/u.test(c) && charset.has(c.codePointAt(0)!)).join('');
      out += base || '?';
    }
  }
  return out.replace(/\?{2,}/g, '?').replace(/\s+/g, ' ').trim().slice(0, MAX_FIELD_CHARS);
}

/**
 * Wraps `text` (already WinAnsi-safe) into at most `maxLines` lines of `maxWidth`, breaking long
 * words; when it does not fit, the last line ends with an ellipsis.
 */
export function wrap(font: PDFFont, size: number, text: string, maxWidth: number, maxLines: number): string[] {
  const width = (s: string) => font.widthOfTextAtSize(s, size);
  const words = text.split(' ').filter(Boolean);
  const lines: string[] = [];
  let current = '';
  let i = 0;
  while (i < words.length && lines.length < maxLines) {
    const word = words[i];
    const candidate = current ? `${current} ${word}` : word;
    if (width(candidate) <= maxWidth) {
      current = candidate;
      i++;
      continue;
    }
    if (current) {
      lines.push(current);
      current = '';
      continue;
    }
    // A single word wider than the line: cut it where it stops fitting.
    let cut = 1;
    while (cut < word.length && width(word.slice(0, cut + 1)) <= maxWidth) cut++;
    lines.push(word.slice(0, cut));
    words[i] = word.slice(cut);
  }
  if (current) lines.push(current); // only reached with room left: lines fill up only after current is flushed
  const truncated = i < words.length;
  if (truncated && lines.length > 0) {
    let last = lines[lines.length - 1];
    while (last.length > 0 && width(`${last}…`) > maxWidth) last = last.slice(0, -1);
    lines[lines.length - 1] = `${last.trimEnd()}…`;
  }
  return lines;
}

/** One line: `text` cut with an ellipsis to fit `maxWidth`. */
export function fit(font: PDFFont, size: number, text: string, maxWidth: number): string {
  return wrap(font, size, text, maxWidth, 1)[0] ?? '';
}
