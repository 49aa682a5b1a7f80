import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import type { StatementFigures } from '../../src/features/statements/analyze';

// Synthetic bank statements made with pdf-lib, in three bank layouts, each generated from its
// list of transactions (the ground truth). Every transaction carries its kind (revenue, transfer,
// loan, refund, expense, mca, nsf, recovery), and the expected figures are computed here from those
// kinds and amounts, independently of the parser (src/features/statements), which sees only the
// printed text. Also hostile and unreadable PDFs for the failure paths.

export type Kind = 'revenue' | 'transfer' | 'loan' | 'refund' | 'expense' | 'mca' | 'nsf' | 'recovery';
export interface GroundTxn {
  day: number;
  description: string;
  cents: number;
  kind: Kind;
  funder?: string;
}
/** The figures a statement must yield (the parser's own type; the values are computed here). */
export type Expected = StatementFigures;
export interface StatementFixture {
  name: string;
  layout: 'single_column' | 'table' | 'sectioned';
  bytes: Uint8Array;
  pages: number;
  features: string[];
  expected: Expected;
}

// ------------------------------------------------------------------------------------ ground truth

function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const REVENUE = ['DEPOSIT SQUARE INC', 'CARD SETTLEMENT VISA MC', 'MOBILE CHECK DEPOSIT', 'ACH CREDIT SHOPIFY PAYMENTS', 'BRANCH DEPOSIT CASH'];
const EXPENSES = ['POS PURCHASE SYSCO FOODS', 'ACH DEBIT ADP PAYROLL', 'CHECK 1042', 'ACH DEBIT XCEL ENERGY', 'POS PURCHASE HOME DEPOT', 'ACH DEBIT COMCAST BUSINESS', 'WIRE OUT LANDLORD RENT'];

interface Plan {
  seed: number;
  year: number;
  month: number; // 1-12
  openingCents: number;
  revenuePerDay: [number, number]; // dollars range per business day
  expensesPerDay: [number, number];
  mca?: Array<{ funder: string; label: string; cents: number; weekly?: boolean }>;
  nsfDays?: number[];
  transfers?: Array<{ day: number; cents: number }>;
  loans?: Array<{ day: number; cents: number; description: string }>;
  refunds?: Array<{ day: number; cents: number; description: string }>;
  recovery?: Array<{ day: number; cents: number; description: string }>;
  extraExpenses?: Array<{ day: number; cents: number }>;
}

const daysIn = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();
const weekday = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d)).getUTCDay();

function transactions(p: Plan): GroundTxn[] {
  const rnd = prng(p.seed);
  const between = (lo: number, hi: number) => Math.round((lo + rnd() * (hi - lo)) * 100);
  const out: GroundTxn[] = [];
  for (let d = 1; d <= daysIn(p.year, p.month); d++) {
    const wd = weekday(p.year, p.month, d);
    if (wd === 0 || wd === 6) continue;
    out.push({ day: d, description: `${REVENUE[Math.floor(rnd() * REVENUE.length)]} ${1000 + Math.floor(rnd() * 9000)}`, cents: between(...p.revenuePerDay), kind: 'revenue' });
    if (rnd() < 0.6) out.push({ day: d, description: EXPENSES[Math.floor(rnd() * EXPENSES.length)], cents: -between(...p.expensesPerDay), kind: 'expense' });
    for (const m of p.mca ?? []) {
      if (m.weekly && wd !== 2) continue;
      out.push({ day: d, description: `ACH DEBIT ${m.label} PMT`, cents: -m.cents, kind: 'mca', funder: m.funder });
    }
  }
  for (const d of p.nsfDays ?? []) out.push({ day: d, description: 'NSF FEE RETURNED ITEM', cents: -3600, kind: 'nsf' });
  for (const t of p.transfers ?? []) out.push({ day: t.day, description: 'ONLINE TRANSFER FROM SAV XXXXXX4410', cents: t.cents, kind: 'transfer' });
  for (const l of p.loans ?? []) out.push({ day: l.day, description: l.description, cents: l.cents, kind: 'loan' });
  for (const r of p.refunds ?? []) out.push({ day: r.day, description: r.description, cents: r.cents, kind: 'refund' });
  for (const r of p.recovery ?? []) out.push({ day: r.day, description: r.description, cents: -r.cents, kind: 'recovery' });
  for (const e of p.extraExpenses ?? []) out.push({ day: e.day, description: 'WIRE OUT EQUIPMENT PURCHASE', cents: -e.cents, kind: 'expense' });
  // Stable order: by day, deposits first within a day (as banks print them).
  return out.map((t, i) => ({ t, i })).sort((a, b) => a.t.day - b.t.day || Number(b.t.cents > 0) - Number(a.t.cents > 0) || a.i - b.i).map((x) => x.t);
}

const iso = (y: number, m: number, d: number) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
const dollars = (c: number) => Math.round(c) / 100;

/** The figures, from the ground truth's kinds (not from any text). */
function expectedOf(p: Plan, bank: string, txns: GroundTxn[]): Expected {
  const n = daysIn(p.year, p.month);
  const deposits = txns.filter((t) => t.cents > 0);
  const revenue = deposits.filter((t) => t.kind === 'revenue').reduce((s, t) => s + t.cents, 0);
  const mca = txns.filter((t) => t.kind === 'mca');
  const mcaCents = mca.reduce((s, t) => s - t.cents, 0);
  let bal = p.openingCents;
  let sum = 0;
  let negative = 0;
  for (let d = 1; d <= n; d++) {
    bal += txns.filter((t) => t.day === d).reduce((s, t) => s + t.cents, 0);
    sum += bal;
    if (bal < 0) negative++;
  }
  return {
    period_start: iso(p.year, p.month, 1),
    period_end: iso(p.year, p.month, n),
    bank_name: bank,
    beginning_balance: dollars(p.openingCents),
    deposits_total: dollars(deposits.reduce((s, t) => s + t.cents, 0)),
    deposit_count: deposits.length,
    true_revenue: dollars(revenue),
    average_daily_balance: dollars(Math.round(sum / n)),
    ending_balance: dollars(bal),
    negative_days: negative,
    nsf_count: txns.filter((t) => t.kind === 'nsf').length,
    mca_count: new Set(mca.map((t) => t.funder)).size,
    mca_withhold_percent: revenue > 0 ? Math.round((mcaCents / revenue) * 10_000) / 100 : 0,
    has_recovery_activity: txns.some((t) => t.kind === 'recovery'),
  };
}

// ------------------------------------------------------------------------------------ layouts

const MON = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTH = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const fmt = (cents: number) => (Math.abs(cents) / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const signed = (cents: number) => (cents < 0 ? `-${fmt(cents)}` : fmt(cents));
const paren = (cents: number) => (cents < 0 ? `(${fmt(cents)})` : fmt(cents));
const mmdd = (m: number, d: number) => `${String(m).padStart(2, '0')}/${String(d).padStart(2, '0')}`;

class Writer {
  page!: PDFPage;
  y = 0;
  pages = 0;
  constructor(readonly doc: PDFDocument, readonly font: PDFFont, readonly bold: PDFFont, readonly header: (w: Writer) => void) {}
  newPage() {
    this.page = this.doc.addPage([612, 792]);
    this.pages++;
    this.y = 750;
    this.header(this);
  }
  text(x: number, s: string, o: { bold?: boolean; size?: number; right?: boolean } = {}) {
    const f = o.bold ? this.bold : this.font;
    const size = o.size ?? 9;
    const at = o.right ? x - f.widthOfTextAtSize(s, size) : x;
    this.page.drawText(s, { x: at, y: this.y, size, font: f, color: rgb(0.1, 0.1, 0.1) });
  }
  line(h = 12) {
    this.y -= h;
    if (this.y < 60) this.newPage();
  }
}

async function render(layout: StatementFixture['layout'], bank: string, p: Plan, txns: GroundTxn[]): Promise<{ bytes: Uint8Array; pages: number }> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const n = daysIn(p.year, p.month);
  const closing = p.openingCents + txns.reduce((s, t) => s + t.cents, 0);
  const startUs = `${mmdd(p.month, 1)}/${p.year}`;
  const endUs = `${mmdd(p.month, n)}/${p.year}`;

  if (layout === 'single_column') {
    const w = new Writer(doc, font, bold, (w) => {
      w.text(50, bank, { bold: true, size: 14 });
      w.line(16);
      w.text(50, 'Business Checking Statement      Account ****4821');
      w.line(18);
    });
    w.newPage();
    w.text(50, `Statement Period: ${startUs} - ${endUs}`);
    w.line();
    w.text(50, `Beginning Balance: $${signed(p.openingCents)}`);
    w.line(18);
    let bal = p.openingCents;
    for (const t of txns) {
      bal += t.cents;
      w.text(50, mmdd(p.month, t.day));
      w.text(95, t.description);
      w.text(440, signed(t.cents), { right: true });
      w.text(540, signed(bal), { right: true });
      w.line();
    }
    w.line(6);
    w.text(50, `Ending Balance: $${signed(closing)}`, { bold: true });
    return { bytes: await doc.save(), pages: w.pages };
  }

  if (layout === 'table') {
    const w = new Writer(doc, font, bold, (w) => {
      w.text(50, bank, { bold: true, size: 14 });
      w.line(16);
      w.text(50, `Statement of Account   ${MONTH[p.month - 1]} 1, ${p.year} through ${MONTH[p.month - 1]} ${n}, ${p.year}`);
      w.line(18);
      w.text(50, 'Date', { bold: true });
      w.text(100, 'Description', { bold: true });
      w.text(400, 'Withdrawals', { bold: true, right: true });
      w.text(480, 'Deposits', { bold: true, right: true });
      w.text(560, 'Balance', { bold: true, right: true });
      w.line(14);
    });
    w.newPage();
    w.text(50, `${MON[p.month - 1]} 01`);
    w.text(100, 'Opening Balance');
    w.text(560, paren(p.openingCents), { right: true });
    w.line();
    let bal = p.openingCents;
    for (const t of txns) {
      bal += t.cents;
      w.text(50, `${MON[p.month - 1]} ${String(t.day).padStart(2, '0')}`);
      w.text(100, t.description);
      if (t.cents < 0) w.text(400, fmt(t.cents), { right: true });
      else w.text(480, fmt(t.cents), { right: true });
      w.text(560, paren(bal), { right: true });
      w.line();
    }
    w.text(100, 'Closing Balance', { bold: true });
    w.text(560, paren(closing), { right: true, bold: true });
    return { bytes: await doc.save(), pages: w.pages };
  }

  // sectioned: a summary first, then deposits and withdrawals in their own sections, no running balance.
  let pageNo = 0;
  const w = new Writer(doc, font, bold, (w) => {
    pageNo++;
    w.text(50, bank, { bold: true, size: 13 });
    w.text(560, `Page ${pageNo}`, { right: true });
    w.line(16);
    w.text(50, `Account ****7730   Statement Period ${startUs} through ${endUs}`);
    w.line(18);
  });
  w.newPage();
  const dep = txns.filter((t) => t.cents > 0);
  const wd = txns.filter((t) => t.cents < 0);
  w.text(50, 'Account Summary', { bold: true });
  w.line();
  w.text(60, 'Previous Balance');
  w.text(300, `$${signed(p.openingCents)}`, { right: true });
  w.line();
  w.text(60, `Deposits and Credits (${dep.length})`);
  w.text(300, `$${fmt(dep.reduce((s, t) => s + t.cents, 0))}`, { right: true });
  w.line();
  w.text(60, `Withdrawals and Debits (${wd.length})`);
  w.text(300, `$${fmt(wd.reduce((s, t) => s + t.cents, 0))}`, { right: true });
  w.line();
  w.text(60, 'New Balance');
  w.text(300, `$${signed(closing)}`, { right: true });
  w.line(20);
  for (const [title, list] of [['DEPOSITS AND OTHER CREDITS', dep], ['WITHDRAWALS AND OTHER DEBITS', wd]] as const) {
    w.text(50, title, { bold: true });
    w.line(14);
    for (const t of list) {
      w.text(50, `${mmdd(p.month, t.day)}/${p.year}`);
      w.text(120, t.description);
      w.text(520, fmt(t.cents), { right: true });
      w.line();
    }
    w.line(8);
  }
  return { bytes: await doc.save(), pages: w.pages };
}

// ------------------------------------------------------------------------------------ the set

interface Spec {
  name: string;
  layout: StatementFixture['layout'];
  bank: string;
  plan: Plan;
  features: string[];
}

export const SPECS: Spec[] = [
  {
    name: 'front-range-2026-10', layout: 'single_column', bank: 'Front Range Community Bank', features: ['clean month'],
    plan: { seed: 1, year: 2026, month: 10, openingCents: 1_834_522, revenuePerDay: [2200, 4800], expensesPerDay: [900, 3800] },
  },
  {
    name: 'front-range-2026-09', layout: 'single_column', bank: 'Front Range Community Bank', features: ['NSF', 'negative days', 'one MCA daily'],
    plan: {
      seed: 2, year: 2026, month: 9, openingCents: 120_000, revenuePerDay: [900, 2100], expensesPerDay: [800, 2600], nsfDays: [8, 9],
      mca: [{ funder: 'Yellowstone Capital', label: 'YELLOWSTONE CAPITAL', cents: 34_900 }], extraExpenses: [{ day: 3, cents: 900_000 }],
    },
  },
  {
    name: 'harborview-2026-10', layout: 'table', bank: 'Harborview Savings Bank', features: ['two MCAs (daily, weekly)', 'transfer in', 'refund'],
    plan: {
      seed: 3, year: 2026, month: 10, openingCents: 2_250_075, revenuePerDay: [3000, 6500], expensesPerDay: [1000, 4500],
      mca: [{ funder: 'Libertas Funding', label: 'LIBERTAS FUNDING LLC', cents: 52_500 }, { funder: 'Pearl Capital', label: 'PEARL CAPITAL BUSINESS FUNDING', cents: 245_000, weekly: true }],
      transfers: [{ day: 14, cents: 500_000 }], refunds: [{ day: 21, cents: 12_999, description: 'REFUND AMAZON MKTPL' }],
    },
  },
  {
    name: 'harborview-2026-11', layout: 'table', bank: 'Harborview Savings Bank', features: ['loan proceeds', 'NSF x3', 'overdrawn start'],
    plan: {
      seed: 4, year: 2026, month: 11, openingCents: -45_017, revenuePerDay: [1500, 3200], expensesPerDay: [700, 2400], nsfDays: [2, 3, 17],
      loans: [{ day: 12, cents: 2_500_000, description: 'SBA LOAN PROCEEDS' }],
    },
  },
  {
    name: 'summit-2026-11', layout: 'sectioned', bank: 'Summit National Bank N.A.', features: ['multi-page', 'recovery activity', 'one MCA', 'advance funding deposit'],
    plan: {
      seed: 5, year: 2026, month: 11, openingCents: 640_410, revenuePerDay: [2500, 5200], expensesPerDay: [800, 3000],
      mca: [{ funder: 'Forward Financing', label: 'FORWARD FINANCING', cents: 41_250 }],
      recovery: [{ day: 6, cents: 150_000, description: 'ACH DEBIT LIBERTAS FUNDING COLLECTIONS' }, { day: 20, cents: 150_000, description: 'ACH DEBIT LIBERTAS FUNDING COLLECTIONS' }],
      loans: [{ day: 4, cents: 3_000_000, description: 'ACH CREDIT KAPITUS ADVANCE' }],
    },
  },
  {
    name: 'summit-2026-12', layout: 'sectioned', bank: 'Summit National Bank N.A.', features: ['multi-page', 'heavy volume', 'reversal'],
    plan: {
      seed: 6, year: 2026, month: 12, openingCents: 1_210_000, revenuePerDay: [4000, 9000], expensesPerDay: [2000, 7000],
      refunds: [{ day: 9, cents: 48_500, description: 'CHARGEBACK REVERSAL VISA' }], transfers: [{ day: 15, cents: 1_000_000 }],
    },
  },
  {
    name: 'front-range-2026-08', layout: 'single_column', bank: 'Front Range Community Bank', features: ['multi-page', 'three MCAs', 'withhold over 20%'],
    plan: {
      seed: 7, year: 2026, month: 8, openingCents: 905_000, revenuePerDay: [2500, 4000], expensesPerDay: [600, 1800],
      mca: [
        { funder: 'Rapid Finance', label: 'RAPID FINANCE', cents: 19_900 },
        { funder: 'Credibly', label: 'CREDIBLY OF ARIZONA', cents: 22_500 },
        { funder: 'Fox Capital', label: 'FOX CAPITAL GROUP', cents: 150_000, weekly: true },
      ],
    },
  },
];

export async function statementFixture(spec: Spec): Promise<StatementFixture> {
  const txns = transactions(spec.plan);
  const { bytes, pages } = await render(spec.layout, spec.bank, spec.plan, txns);
  return { name: spec.name, layout: spec.layout, bytes, pages, features: spec.features, expected: expectedOf(spec.plan, spec.bank, txns) };
}

export async function statementFixtures(): Promise<StatementFixture[]> {
  return Promise.all(SPECS.map(statementFixture));
}

// ------------------------------------------------------------------------------------ bad PDFs

/** A "scan": drawn shapes, no text layer. */
export async function scannedPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  for (let i = 0; i < 40; i++) page.drawRectangle({ x: 50, y: 740 - i * 16, width: 300 + (i % 5) * 40, height: 8, color: rgb(0.2, 0.2, 0.2) });
  return doc.save();
}

/** A letter: text, but no statement in it. */
export async function letterPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([612, 792]);
  ['Dear Maria,', 'Thank you for your application dated 10/02/2026.', 'We will be in touch within two business days.', 'Kind regards, Marcus'].forEach((l, i) =>
    page.drawText(l, { x: 50, y: 700 - i * 16, size: 11, font }),
  );
  return doc.save();
}

/** `count` pages of one line each. */
export async function manyPagesPdf(count: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < count; i++) doc.addPage([300, 300]).drawText(`Page ${i + 1}`, { x: 20, y: 260, size: 10, font });
  return doc.save({ useObjectStreams: true });
}

/** Hand-written PDF objects with a correct cross-reference table. */
function rawPdf(objects: string[], trailerExtra = ''): Uint8Array {
  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${trailerExtra}>>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(out, 'latin1'));
}

const stream = (content: string, dict = '') => `<< ${dict} /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`;

/** Encrypted with the standard security handler and a user password nobody knows. */
export function passwordPdf(): Uint8Array {
  const hex = (n: number, seed: number) => Array.from({ length: n }, (_, i) => ((i * 37 + seed * 11) % 256).toString(16).padStart(2, '0')).join('');
  return rawPdf(
    [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>',
      stream('BT /F1 12 Tf 50 700 Td (secret) Tj ET'),
      `<< /Filter /Standard /V 1 /R 2 /O <${hex(32, 1)}> /U <${hex(32, 2)}> /P -44 >>`,
    ],
    `/Encrypt 5 0 R /ID [<${hex(16, 3)}> <${hex(16, 3)}>] `,
  );
}

/**
 * A "billion laughs" PDF: form XObject F9 draws F8 ten times, F8 draws F7 ten times, ... F0 shows one
 * character. Tiny on disk, 10^9 text runs for a reader that expands it.
 */
export function bombPdf(depth = 9): Uint8Array {
  const objs: string[] = ['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>'];
  // 3: page, 4: font, 5..5+depth: forms F0..Fdepth
  const formObj = (i: number) => 5 + i;
  objs.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /F${depth} ${formObj(depth)} 0 R >> >> /Contents ${formObj(depth) + 1} 0 R >>`);
  objs.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  for (let i = 0; i <= depth; i++) {
    const body = i === 0 ? 'BT /H 8 Tf 10 10 Td (A) Tj ET' : Array.from({ length: 10 }, () => `/F${i - 1} Do`).join(' ');
    const res = i === 0 ? '/Resources << /Font << /H 4 0 R >> >>' : `/Resources << /XObject << /F${i - 1} ${formObj(i - 1)} 0 R >> >>`;
    objs.push(stream(body, `/Type /XObject /Subtype /Form /BBox [0 0 612 792] ${res}`));
  }
  objs.push(stream(`/F${depth} Do`));
  return rawPdf(objs);
}

/**
 * A decompression bomb: one page whose content stream is a FlateDecode stream of `decodedMb` MB of
 * zeros (about 1 KB compressed per MB), behind a line of text. Made 1 MB at a time, so the test
 * process never holds the decoded bytes. `layers` > 1 compresses the compressed data again (a
 * chained /Filter [/FlateDecode /FlateDecode]).
 */
export async function inflateBombPdf(decodedMb: number, layers = 1): Promise<Uint8Array> {
  const { createDeflate, deflateSync } = await import('node:zlib');
  const zeros = Buffer.alloc(1024 * 1024);
  const head = Buffer.from('BT /H 10 Tf 50 700 Td (Statement Period 10/01/2026 - 10/31/2026) Tj ET\n', 'latin1');
  let data = await new Promise<Buffer>((resolve, reject) => {
    const z = createDeflate({ level: 9 });
    const parts: Buffer[] = [];
    z.on('data', (c: Buffer) => parts.push(c));
    z.on('end', () => resolve(Buffer.concat(parts)));
    z.on('error', reject);
    z.write(head);
    let left = decodedMb;
    const more = () => {
      while (left > 0) {
        left--;
        if (!z.write(zeros)) return void z.once('drain', more);
      }
      z.end();
    };
    more();
  });
  for (let i = 1; i < layers; i++) data = deflateSync(data);
  const filter = layers === 1 ? '/FlateDecode' : `[${Array.from({ length: layers }, () => '/FlateDecode').join(' ')}]`;
  return rawPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /H 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Filter ${filter} /Length ${data.length} >>\nstream\n${data.toString('latin1')}\nendstream`,
  ]);
}
