import { PDFDocument, StandardFonts, type PDFFont } from 'pdf-lib';

// A small statement PDF builder for the reading-rule tests: each page is a list of lines, each line
// a list of cells placed at an x (left-aligned, or right-aligned at x with `r`), one baseline per
// line. What the reader sees is exactly what a bank's PDF gives pdf.js: positioned text items.

export type Cell = readonly [x: number, text: string] | readonly [x: number, text: string, o: { readonly r?: boolean; readonly b?: boolean; readonly size?: number }];
export type PageSpec = Array<readonly Cell[] | string>;

export async function statementPdf(pages: PageSpec[], o: { landscape?: boolean; size?: number; lineGap?: number } = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const [w, h] = o.landscape ? [792, 612] : [612, 792];
  const size = o.size ?? 9;
  for (const spec of pages) {
    const page = doc.addPage([w, h]);
    let y = h - 50;
    for (const line of spec) {
      const cells: readonly Cell[] = typeof line === 'string' ? [[50, line]] : line;
      for (const c of cells) {
        const opts = c[2] ?? {};
        const f: PDFFont = opts.b ? bold : font;
        const s = opts.size ?? size;
        const x = opts.r ? c[0] - f.widthOfTextAtSize(c[1], s) : c[0];
        page.drawText(c[1], { x, y, size: s, font: f });
      }
      y -= o.lineGap ?? size + 4;
    }
  }
  return doc.save();
}

/** Dollars as banks print them: 1,234.56 */
export const fmt = (cents: number) => (Math.abs(cents) / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
