// The trace-code stamp on every page: on a strip added below a document page's visible area (as
// displayed, whatever its /Rotate), and in the kept-free footer of the pages we lay out.
import { degrees, type PDFFont, type PDFPage } from 'pdf-lib';
import { fit, type Fonts, FOOTER_SIZE, FOOTER_STRIP, INK, LETTER, MARGIN, MUTED, OWN_FOOTER, WHITE } from './layout';

type Box = { x: number; y: number; width: number; height: number };

function intersect(a: Box, b: Box): Box {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const width = Math.min(a.x + a.width, b.x + b.width) - x;
  const height = Math.min(a.y + a.height, b.y + b.height) - y;
  return width > 0 && height > 0 ? { x, y, width, height } : b;
}

function union(a: Box, b: Box): Box {
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return { x, y, width: Math.max(a.x + a.width, b.x + b.width) - x, height: Math.max(a.y + a.height, b.y + b.height) - y };
}

function normalBox(b: Box): Box {
  // Boxes may be written with their corners in any order.
  const x = Math.min(b.x, b.x + b.width);
  const y = Math.min(b.y, b.y + b.height);
  return { x, y, width: Math.abs(b.width), height: Math.abs(b.height) };
}

function pageRotation(page: PDFPage): 0 | 90 | 180 | 270 {
  const angle = page.getRotation().angle;
  const r = ((Math.round(angle / 90) * 90) % 360 + 360) % 360;
  return r as 0 | 90 | 180 | 270;
}

/**
 * Draws the stamp strip along the displayed bottom edge of `box` (rotation as the page's /Rotate):
 * a white band `strip` high, `left` at its start and `right` at its end, reading left to right as
 * displayed. The left text (which carries the trace code) always fits: it shrinks, then falls back
 * to `fallback`, before it would be cut.
 */
function drawStamp(
  page: PDFPage,
  fonts: Fonts,
  box: Box,
  rotation: 0 | 90 | 180 | 270,
  geometry: { strip: number; pad: number; size: number },
  texts: { left: string; fallback: string; right: string },
) {
  const { strip, pad, size: fullSize } = geometry;
  const { left, fallback, right } = texts;
  const displayWidth = rotation % 180 === 0 ? box.width : box.height;
  const toPage = (u: number, v: number): { x: number; y: number } => {
    switch (rotation) {
      case 90:
        return { x: box.x + box.width - v, y: box.y + u };
      case 180:
        return { x: box.x + box.width - u, y: box.y + box.height - v };
      case 270:
        return { x: box.x + v, y: box.y + box.height - u };
      default:
        return { x: box.x + u, y: box.y + v };
    }
  };
  const rotate = degrees(rotation);
  const origin = toPage(0, 0);
  page.drawRectangle({ ...origin, width: displayWidth, height: strip, color: WHITE, rotate });

  const available = Math.max(displayWidth - 2 * pad, 1);
  let text = left;
  let size = fullSize;
  const widthAt = (s: string, font: PDFFont, sz: number) => font.widthOfTextAtSize(s, sz);
  if (widthAt(text, fonts.bold, size) > available) {
    size = Math.max(available / widthAt(text, fonts.bold, 1), 4);
    if (widthAt(text, fonts.bold, size) > available) {
      text = fallback;
      size = Math.min(fullSize, available / widthAt(text, fonts.bold, 1));
    }
  }
  const baseline = (strip - size * 0.7) / 2;
  page.drawText(text, { ...toPage(pad, baseline), size, font: fonts.bold, color: INK, rotate });

  const used = pad + widthAt(text, fonts.bold, size) + 1.5 * fullSize;
  const room = displayWidth - used - pad;
  if (right && room > 5 * fullSize) {
    const shown = fit(fonts.regular, size, right, room);
    const w = widthAt(shown, fonts.regular, size);
    page.drawText(shown, { ...toPage(displayWidth - pad - w, baseline), size, font: fonts.regular, color: MUTED, rotate });
  }
}

function stampText(code: string, pageNo: number, total: number, right: string) {
  return { left: `Ref ${code} · page ${pageNo} of ${total}`, fallback: code, right };
}

/** Stamps a page we laid out ourselves (upright, the bottom OWN_FOOTER kept free), within the margins. */
export function stampOwnPage(page: PDFPage, fonts: Fonts, code: string, pageNo: number, total: number, right: string) {
  const { width, height } = page.getSize();
  const geometry = { strip: OWN_FOOTER, pad: MARGIN, size: FOOTER_SIZE };
  drawStamp(page, fonts, { x: 0, y: 0, width, height }, 0, geometry, stampText(code, pageNo, total, right));
}

/**
 * Stamps a page copied from a document: its visible area (CropBox within MediaBox) grows by a strip
 * on the displayed bottom edge, and the stamp goes on that strip, so nothing of the page is covered.
 */
export function stampDocumentPage(page: PDFPage, fonts: Fonts, code: string, pageNo: number, total: number, right: string) {
  const media = normalBox(page.getMediaBox());
  const visible = intersect(normalBox(page.getCropBox()), media);
  const rotation = pageRotation(page);
  const displayWidth = rotation % 180 === 0 ? visible.width : visible.height;
  // Keep the stamp legible on pages far larger than Letter (viewers zoom them out).
  const strip = FOOTER_STRIP * Math.min(Math.max(displayWidth / LETTER[0], 1), 4);
  const grown = { ...visible };
  if (rotation === 0) {
    grown.y -= strip;
    grown.height += strip;
  } else if (rotation === 90) {
    grown.width += strip;
  } else if (rotation === 180) {
    grown.height += strip;
  } else {
    grown.x -= strip;
    grown.width += strip;
  }
  const newMedia = union(media, grown);
  page.setMediaBox(newMedia.x, newMedia.y, newMedia.width, newMedia.height);
  page.setCropBox(grown.x, grown.y, grown.width, grown.height);
  const k = strip / FOOTER_STRIP;
  const geometry = { strip, pad: 8 * k, size: FOOTER_SIZE * k };
  drawStamp(page, fonts, grown, rotation, geometry, stampText(code, pageNo, total, right));
}
