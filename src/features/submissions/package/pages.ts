// The pages we lay out ourselves: the deal summary page and one page per image document.
import { PDFDocument, concatTransformationMatrix, drawObject, popGraphicsState, pushGraphicsState, rgb, type PDFFont, type PDFImage, type PDFPage } from 'pdf-lib';
import type { SubmissionPackageInput } from './model';
import { BAND, fit, type Fonts, INK, LETTER, MARGIN, MUTED, OWN_FOOTER, RULE, toWinAnsi, wrap } from './layout';
import { address, DASH, entityType, humanize, money, ownerName, percent, phone, present, product, shortTerm, term, timeInBusiness, utcStamp } from './format';

// Image pages

/**
 * Draws an image on its own page, scaled to fit, turned upright as its EXIF orientation says. The
 * page is portrait or landscape to match the image.
 */
export function addImagePage(out: PDFDocument, image: PDFImage, orientation: number): PDFPage {
  const swapped = orientation >= 5;
  const w = swapped ? image.height : image.width;
  const h = swapped ? image.width : image.height;
  const page = out.addPage(w > h ? [LETTER[1], LETTER[0]] : LETTER);
  const { width, height } = page.getSize();
  const areaW = width - 2 * 36;
  const areaH = height - 36 - OWN_FOOTER;
  const scale = Math.min(areaW / w, areaH / h, 3);
  const dw = w * scale;
  const dh = h * scale;
  const X = (width - dw) / 2;
  const Y = OWN_FOOTER + (areaH - dh) / 2;
  // Displayed (s, t) in the unit square from stored (u, v): s = s0 + su*u + sv*v, t = t0 + tu*u + tv*v.
  const maps: Record<number, [number, number, number, number, number, number]> = {
    1: [0, 1, 0, 0, 0, 1],
    2: [1, -1, 0, 0, 0, 1],
    3: [1, -1, 0, 1, 0, -1],
    4: [0, 1, 0, 1, 0, -1],
    5: [1, 0, -1, 1, -1, 0],
    6: [0, 0, 1, 1, -1, 0],
    7: [0, 0, 1, 0, 1, 0],
    8: [1, 0, -1, 0, 1, 0],
  };
  const [s0, su, sv, t0, tu, tv] = maps[orientation] ?? maps[1];
  const name = page.node.newXObject('Image', image.ref);
  page.pushOperators(
    pushGraphicsState(),
    concatTransformationMatrix(dw * su, dh * tu, dw * sv, dh * tv, X + dw * s0, Y + dh * t0),
    drawObject(name),
    popGraphicsState(),
  );
  return page;
}

// ---------------------------------------------------------------------------------------------
// The summary page

export type DocRow = { filename: string; what: string; pages: string };

export function drawSummary(page: PDFPage, fonts: Fonts, input: SubmissionPackageInput, docs: DocRow[]) {
  const safe = (s: string | number | null | undefined) => toWinAnsi(present(s) ? String(s) : DASH, fonts.charset);
  const { width, height } = page.getSize();
  const contentW = width - 2 * MARGIN;
  const bottom = OWN_FOOTER + 18; // nothing is drawn below this line
  let y = height - MARGIN;

  const line = (text: string, opts: { font?: PDFFont; size?: number; color?: ReturnType<typeof rgb>; x?: number; maxWidth?: number; maxLines?: number; leading?: number }) => {
    const font = opts.font ?? fonts.regular;
    const size = opts.size ?? 9.5;
    const leading = opts.leading ?? size * 1.3;
    const lines = wrap(font, size, text, opts.maxWidth ?? contentW, opts.maxLines ?? 1);
    for (const l of lines) {
      page.drawText(l, { x: opts.x ?? MARGIN, y: y - size, size, font, color: opts.color ?? INK });
      y -= leading;
    }
    return lines.length;
  };

  // Title block
  line('DEAL SUBMISSION', { font: fonts.bold, size: 9, color: MUTED, leading: 16 });
  line(safe(input.business.legal_name), { font: fonts.bold, size: 20, maxLines: 2, leading: 24 });
  if (present(input.business.dba) && input.business.dba.trim() !== input.business.legal_name?.trim()) {
    line(`DBA ${safe(input.business.dba)}`, { size: 11, color: MUTED, leading: 16 });
  }
  y -= 4;
  const prepared = [
    `Reference ${input.traceCode}`,
    `prepared ${utcStamp(input.generatedAt)} by ${safe(input.location?.name)}`,
    ...(input.lender && present(input.lender.name) ? [`for ${safe(input.lender.name)}`] : []),
  ].join(' · ');
  line(prepared, { size: 9.5, color: MUTED, maxLines: 2 });
  y -= 8;

  // Key figures band
  const bandH = 46;
  page.drawRectangle({ x: MARGIN, y: y - bandH, width: contentW, height: bandH, color: BAND });
  const figures: [string, string][] = [
    ['AMOUNT REQUESTED', money(input.deal.requested_amount)],
    ['PRODUCT', safe(product(input.deal.product_type))],
    ['TERM', safe(shortTerm(input.deal))],
  ];
  const colW = contentW / figures.length;
  figures.forEach(([label, value], k) => {
    const x = MARGIN + 12 + k * colW;
    page.drawText(label, { x, y: y - 16, size: 7.5, font: fonts.bold, color: MUTED });
    page.drawText(fit(fonts.bold, 13, value, colW - 20), { x, y: y - 34, size: 13, font: fonts.bold, color: INK });
  });
  y -= bandH + 16;

  const section = (title: string) => {
    page.drawText(title.toUpperCase(), { x: MARGIN, y: y - 9, size: 9, font: fonts.bold, color: MUTED });
    page.drawLine({ start: { x: MARGIN, y: y - 13 }, end: { x: MARGIN + contentW, y: y - 13 }, thickness: 0.6, color: RULE });
    y -= 22;
  };
  const labelW = 150;
  const field = (label: string, value: string, maxLines = 1) => {
    page.drawText(label, { x: MARGIN, y: y - 9.5, size: 9.5, font: fonts.regular, color: MUTED });
    line(value, { x: MARGIN + labelW, maxWidth: contentW - labelW, maxLines, leading: 13 });
  };

  const b = input.business;
  const d = input.deal;
  section('Business');
  field('Legal name', safe(b.legal_name), 2);
  field('DBA', safe(b.dba));
  field('Entity type', safe(entityType(b.entity_type)));
  field('State of incorporation', safe(d.state_incorporated));
  field('EIN', safe(b.ein));
  field('Industry', safe(b.industry), 2);
  field('Address', safe(address(b)), 2);
  field('Phone', safe(phone(b.phone)));
  field('Time in business', safe(timeInBusiness(b.business_start_date, input.generatedAt)));
  y -= 8;

  section('Funding request');
  field('Amount requested', money(d.requested_amount));
  field('Product', safe(product(d.product_type)));
  field('Use of funds', safe(d.use_of_funds), 3);
  field('Desired term', safe(term(d)));
  field('Annual revenue', money(d.annual_revenue));
  const monthly =
    typeof d.monthly_revenue === 'number' && Number.isFinite(d.monthly_revenue)
      ? money(d.monthly_revenue)
      : typeof d.annual_revenue === 'number' && Number.isFinite(d.annual_revenue)
        ? `${money(d.annual_revenue / 12)} (annual / 12)`
        : DASH;
  field('Monthly revenue', monthly);
  y -= 8;

  // Owners: name, role, share. Nothing else from the input is read.
  const owners = Array.isArray(input.owners) ? input.owners : [];
  section('Owners');
  const cols = [MARGIN, MARGIN + 250, MARGIN + 400];
  const row = (cells: string[], font: PDFFont, color = INK) => {
    const widths = [240, 140, contentW - 400];
    cells.forEach((c, k) => page.drawText(fit(font, 9.5, c, widths[k]), { x: cols[k], y: y - 9.5, size: 9.5, font, color }));
    y -= 13;
  };
  if (owners.length === 0) {
    row(['No owners on file', '', ''], fonts.regular, MUTED);
  } else {
    row(['Name', 'Role', 'Ownership'], fonts.bold, MUTED);
    const shown = owners.slice(0, owners.length > 5 ? 4 : 5);
    for (const o of shown) row([safe(ownerName(o)), safe(present(o.role) ? humanize(o.role) : DASH), percent(o.ownership_percent)], fonts.regular);
    if (owners.length > shown.length) row([`+ ${owners.length - shown.length} more owners`, '', ''], fonts.regular, MUTED);
  }
  y -= 8;

  // Documents, with where they are in this package; as many rows as the page holds.
  const note = `Please quote reference ${input.traceCode} in every reply about this deal.`;
  const noteH = 24;
  section('Documents enclosed');
  const docCols = [MARGIN, MARGIN + 260, MARGIN + 430];
  const docRow = (cells: string[], font: PDFFont, color = INK) => {
    const widths = [250, 160, contentW - 430];
    cells.forEach((c, k) => page.drawText(fit(font, 9.5, c, widths[k]), { x: docCols[k], y: y - 9.5, size: 9.5, font, color }));
    y -= 13;
  };
  if (docs.length === 0) {
    docRow(['No documents attached', '', ''], fonts.regular, MUTED);
  } else {
    docRow(['File', 'Type', 'Pages'], fonts.bold, MUTED);
    const capacity = Math.max(Math.floor((y - bottom - noteH) / 13), 1);
    const shown = docs.length > capacity ? docs.slice(0, capacity - 1) : docs;
    for (const r of shown) docRow([safe(r.filename), r.what, r.pages], fonts.regular);
    if (docs.length > shown.length) {
      const rest = docs.slice(shown.length);
      const first = rest[0].pages.split('–')[0];
      const last = rest[rest.length - 1].pages.split('–').pop();
      docRow([`+ ${rest.length} more documents`, '', `${first}–${last}`], fonts.regular, MUTED);
    }
  }

  page.drawText(note, { x: MARGIN, y: bottom - 4, size: 9, font: fonts.bold, color: INK });
}
