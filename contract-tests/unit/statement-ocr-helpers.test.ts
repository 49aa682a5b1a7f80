import { beforeAll, describe, expect, it } from 'vitest';
import { chooseAlternatives, DEFAULTS, scanPageMsFromEnv } from '../../src/features/statements/analyze';
import { extractItems, type PageItems } from '../../src/features/statements/extract';
import { amountAlternatives, amountParts, baselineLift, fixDates, inkBand, inkBaseline, inkless, keepRecovered, ocrText, ruleRemnants, settleAmount, signAlternatives, signBefore, strayDash, uncoveredStrips } from '../../src/features/statements/ocr.mjs';
import { statementFixtures, type StatementFixture } from '../support/statement-fixtures';

// The pure helpers of the OCR path (src/features/statements/ocr.mjs): what a recognized word becomes
// before the reader sees it, and how a doubtful amount read a second time is settled. The rule they
// keep: an amount is read exactly or left unreadable ("?", refused by the reconciliation), never
// guessed from one reading.
/** The readings a test gives `settleAmount`, one per call, then '' (nothing more read). */
const reads = (...xs: string[]) => {
  const asked: string[] = [];
  return { asked, more: async () => (asked.push(xs[asked.length] ?? ''), xs[asked.length - 1] ?? '') };
};

describe('a recognized word is cleaned of what print cannot have', () => {
  it('a stray quote, backtick or underscore at a word edge goes; a dash before a date goes', () => {
    expect(ocrText('"Opening')).toBe('Opening');
    expect(ocrText("Debit'")).toBe('Debit');
    expect(ocrText("'06/06")).toBe('06/06');
    expect(ocrText('"11/10')).toBe('11/10');
    expect(ocrText('_Apr25')).toBe('Apr 25');
    expect(ocrText('-06/09')).toBe('06/09');
    // Inside a word a quote stays.
    expect(ocrText("O'BRIEN")).toBe("O'BRIEN");
  });

  it("a month's name glued to its day is two words", () => {
    expect(ocrText('Apr10')).toBe('Apr 10');
    expect(ocrText('Apr7')).toBe('Apr 7');
    expect(ocrText('Sept3,')).toBe('Sept 3,');
    expect(ocrText('Apr2s')).toBe('Apr2s');
    expect(ocrText('April')).toBe('April');
  });

  it('an amount is never changed by it: signs stay, one with a stray mark stays as read (doubtful)', () => {
    expect(ocrText('-$5.00')).toBe('-$5.00');
    expect(ocrText('5.00-')).toBe('5.00-');
    expect(ocrText('(12.00)')).toBe('(12.00)');
    expect(ocrText('"669.79')).toBe('"669.79');
    expect(ocrText("1,234.56'")).toBe("1,234.56'");
    // A comma read as a period in a US amount (one decimal point) is put back.
    expect(ocrText('6.371.53')).toBe('6,371.53');
  });

  it('a date column whose slash was lost or read as a 1 is put right; nothing outside such a column is', () => {
    const col = (ss: string[], x = 40.8) => ss.map((s) => ({ x, s }));
    const a = col(['11/03', '11/04', '11/07', '1117', '11117', '11/18']);
    fixDates(a);
    expect(a.map((i) => i.s)).toEqual(['11/03', '11/04', '11/07', '11/17', '11/17', '11/18']);
    // Two dates only, or another column (a check number): left as read.
    const b = [...col(['11/03', '11/04', '1117']), ...col(['1117', '8812'], 80.4)];
    fixDates(b);
    expect(b.map((i) => i.s)).toEqual(['11/03', '11/04', '1117', '1117', '8812']);
    // Dates printed with one-digit days: four digits are not taken for one.
    const c = col(['1/3', '1/4', '1/7', '1117']);
    fixDates(c);
    expect(c[3].s).toBe('1117');
  });

  it('a dash read alone after a description is a speck (no sign is printed there); after an amount it stays', () => {
    // The allegan 200 dpi JPEG of the scanned set: a speck after a deposit's description, read as
    // "-", made the deposit a debit.
    expect(strayDash('MOBILE DEPOSIT 6078401 -')).toBe('MOBILE DEPOSIT 6078401');
    expect(strayDash('CARD PURCHASE \u2013')).toBe('CARD PURCHASE');
    expect(strayDash('5.00 -')).toBe('5.00 -');
    expect(strayDash('$1,569.62? -')).toBe('$1,569.62? -');
    expect(strayDash('- $300.94')).toBe('- $300.94');
    expect(strayDash('-')).toBe('-');
    expect(strayDash('PAYMENT - REF 123')).toBe('PAYMENT - REF 123');
  });

  it("a word cut out to be read again keeps its own line's band of ink, not the lines above and below", () => {
    // 8 columns, 14 rows: a sliver of the line above (rows 0-1), the word (rows 4-8, the most ink),
    // the top of the line below (row 12); paper between. (Capstone's 150 dpi scan: a crop with parts
    // of the rows beside it was read as nothing, twice.)
    const W = 8;
    const g = new Uint8Array(W * 14).fill(255);
    const ink = (y: number, x0: number, x1: number) => g.fill(0, y * W + x0, y * W + x1);
    ink(0, 2, 4); ink(1, 2, 3);
    for (let y = 4; y <= 8; y++) ink(y, 1, 7);
    ink(12, 0, 8);
    expect(inkBand(g, W, 0, W, 0, 14)).toEqual([2, 11]);
    // One band only (the word alone): the crop is left as it is.
    expect(inkBand(g, W, 0, W, 3, 10)).toBeNull();
  });

  it("a line stands where its words' ink stands: a speck below a word does not lower it, a descender does not either", () => {
    // 60 × 40 pixels, line height 20: a word's letters on rows 10-24 (a full row of ink on each), a
    // descender (2 pixels wide) on rows 25-28, and a speck (3 × 3) on rows 31-33 inside the word's box
    // as the recognizer drew it (to row 33), which fitted its baseline to the speck (row 33).
    // (Empire City's 150 dpi JPEG: a speck under "Credits" put the header word 3.5 pt below its row,
    // and the credits column was lost.)
    const w = 60;
    const ink = new Uint8Array(w * 40);
    const put = (x0: number, x1: number, y0: number, y1: number) => {
      for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) ink[y * w + x] = 1;
    };
    put(5, 50, 10, 24);
    put(20, 21, 25, 28);
    put(40, 42, 31, 33);
    const box = [{ x0: 5, y0: 10, x1: 50, y1: 33 }];
    expect(inkBaseline(ink, w, box)).toBe(24);
    expect(baselineLift(ink, w, box, 33, 20)).toBe(9);
    // The recognizer's baseline where the ink is (a pixel or two apart on a clean line): unchanged.
    expect(baselineLift(ink, w, box, 25, 20)).toBe(0);
    expect(baselineLift(ink, w, box, 26, 20)).toBe(0);
    // No ink in the boxes: nothing to go by.
    expect(baselineLift(ink, w, [{ x0: 55, y0: 0, x1: 59, y1: 5 }], 5, 20)).toBe(0);
  });

  it("a ruled line's remnants on its own rows go; a glyph touching them, and ink off the rule's rows or columns, stays", () => {
    // 100 dpi, 200 × 40 pixels: a rule found on rows 10-11 from column 20 to 180 (already erased),
    // its pieces left in the gaps between words (a dash on rows 11-12, a dot on row 9); a capital
    // whose top touches the rule's rows (a stroke from row 12 down to row 30); a dash beside the
    // rule's columns and a dot well below the rule (neither is the rule's).
    const w = 200;
    const h = 40;
    const ink = new Uint8Array(w * h);
    const put = (x0: number, x1: number, y0: number, y1: number) => {
      for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) ink[y * w + x] = 1;
    };
    put(40, 52, 11, 12); // remnant dash
    put(90, 91, 9, 9); // remnant dot
    put(120, 123, 12, 30); // a glyph reaching into the rule's rows
    put(185, 195, 11, 11); // past the rule's end
    put(60, 61, 20, 21); // a period below
    const ruleFrom = new Int32Array(h).fill(w);
    const ruleTo = new Int32Array(h).fill(-1);
    for (const y of [10, 11]) (ruleFrom[y] = 20), (ruleTo[y] = 180);
    // A run shorter than an inch and a half (the foot of a row of digits taken for a rule) leaves
    // everything where it is (a decimal point on it is no remnant).
    const short = ink.slice();
    const shortFrom = new Int32Array(h).fill(w);
    const shortTo = new Int32Array(h).fill(-1);
    for (const y of [10, 11]) (shortFrom[y] = 20), (shortTo[y] = 160);
    ruleRemnants(short, w, h, shortFrom, shortTo, 100);
    expect(short).toEqual(ink);
    ruleRemnants(ink, w, h, ruleFrom, ruleTo, 100);
    const at = (x: number, y: number) => ink[y * w + x];
    expect([at(40, 11), at(52, 12), at(90, 9)]).toEqual([0, 0, 0]);
    expect([at(120, 12), at(123, 30), at(185, 11), at(60, 20)]).toEqual([1, 1, 1, 1]);
    // A band too thick to be a rule (a bar, a shaded heading): nothing goes.
    const bar = new Uint8Array(w * h);
    bar.set(ink);
    for (let x = 40; x <= 52; x++) bar[11 * w + x] = 1;
    const from = new Int32Array(h).fill(w);
    const to = new Int32Array(h).fill(-1);
    for (let y = 5; y <= 15; y++) (from[y] = 20), (to[y] = 180);
    ruleRemnants(bar, w, h, from, to, 100);
    expect(bar[11 * w + 40]).toBe(1);
  });

  it('an amount in parts: value and the signs before and after its digits', () => {
    expect(amountParts('$1,234.56')).toEqual({ cents: 123456, lead: '', trail: '' });
    expect(amountParts('-$5.00')).toEqual({ cents: 500, lead: '-', trail: '' });
    expect(amountParts('(12.00)')).toEqual({ cents: 1200, lead: '(', trail: ')' });
    expect(amountParts('4237.32')).toEqual({ cents: 423732, lead: '', trail: '' });
    // A dash of any length is one minus sign.
    expect(amountParts('\u2014$14,608.35')).toEqual({ cents: 1460835, lead: '-', trail: '' });
    expect(amountParts('4,237.3')).toBeNull();
    expect(amountParts('')).toBeNull();
  });
});

describe('what the page layout left out, and specks read as letters', () => {
  // A 200 x 120 page of ink: two words read (boxes), a column of three dates nobody read (left), a
  // lone speck (3 pixels) and a run of ink beside a read word, inside its box.
  const W = 200;
  const H = 120;
  const page = () => {
    const ink = new Uint8Array(W * H);
    const fill = (x0: number, y0: number, x1: number, y1: number) => {
      for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) ink[y * W + x] = 1;
    };
    for (const y of [10, 40, 70]) fill(10, y, 40, y + 12); // the unread dates, one per row
    fill(60, 10, 120, 22); // a word read
    fill(60, 40, 120, 52); // a word read
    fill(150, 100, 151, 103); // a speck
    return ink;
  };
  const read = [{ x0: 60, y0: 10, x1: 119, y1: 21 }, { x0: 60, y0: 40, x1: 119, y1: 51 }];

  it('ink no word covers, in one column of rows, is one strip to read again; ink under the words read, and a speck, are not', () => {
    const strips = uncoveredStrips(page(), W, H, read, 5);
    expect(strips).toHaveLength(1);
    const [s] = strips;
    expect(s.x0).toBeLessThanOrEqual(10);
    expect(s.x1).toBeGreaterThanOrEqual(40);
    expect(s.x1).toBeLessThan(60);
    expect([s.y0 <= 10, s.y1 >= 82]).toEqual([true, true]);
    // Its three rows stay apart: each is a part of its own (the crop holds only their pixels).
    expect(s.parts).toHaveLength(3);
    // Every word read, or every date too: nothing left.
    expect(uncoveredStrips(page(), W, H, [...read, { x0: 10, y0: 10, x1: 39, y1: 81 }], 5)).toEqual([]);
  });

  it('a recovered word is kept when it holds a digit and was read with some confidence', () => {
    expect(keepRecovered('06/03', 91)).toBe(true);
    expect(keepRecovered('1,456.43', 60)).toBe(true);
    expect(keepRecovered('oo', 95)).toBe(false);
    expect(keepRecovered('06/03', 20)).toBe(false);
  });

  it('a word read with little confidence from a box with far less ink than its characters is specks', () => {
    // "To" from five pixels between two amounts (line 30 px): dropped; a real word with its ink, or read confidently, stays.
    expect(inkless(5, 2, 30, 0)).toBe(true);
    expect(inkless(5, 2, 30, 80)).toBe(false);
    expect(inkless(200, 2, 30, 0)).toBe(false);
  });

  it('a minus read twice as a word of its own ("--") is one minus sign, glued to the amount after it', () => {
    expect(ocrText('--')).toBe('-');
    expect(ocrText('\u2014')).toBe('-');
    expect(ocrText('--$5.00')).toBe('-$5.00');
  });
});

describe('a doubtful amount read again is settled by agreement, or stays unreadable', () => {
  it('ink beside an amount that a second reading does not read as a sign: the first reading holds', async () => {
    const r = reads('2,880.00');
    expect(await settleAmount('2,880.00', 'mark', { lead: false, trail: true }, r.more)).toBe('2,880.00');
    expect(r.asked).toHaveLength(1);
  });

  it('ink beside an amount read as a sign by a second and a third reading: the sign is put there, and only there', async () => {
    expect(await settleAmount('$960.00', 'mark', { lead: true, trail: false }, reads('-$960.00', '-960.00').more)).toBe('-$960.00');
    expect(await settleAmount('12.00', 'mark', { lead: false, trail: true }, reads('12.00-', '12.00-').more)).toBe('12.00-');
    // Not where no ink was found, not with another value, not from one reading alone.
    expect(await settleAmount('12.00', 'mark', { lead: false, trail: true }, reads('(12.00)', '(12.00)').more)).toBeNull();
    expect(await settleAmount('12.00', 'mark', { lead: false, trail: true }, reads('13.00-', '13.00-').more)).toBeNull();
    expect(await settleAmount('880.00', 'mark', { lead: true, trail: false }, reads('-880.00', '880.00').more)).toBeNull();
    expect(await settleAmount('880.00', 'mark', { lead: true, trail: false }, reads('-880.00', '').more)).toBeNull();
  });

  it('a low-confidence amount read the same again holds (a comma dropped or a period for a comma is the same value)', async () => {
    expect(await settleAmount('4237.32', 'low', undefined, reads('4,237.32').more)).toBe('4237.32');
    expect(await settleAmount('6,018.35', 'low', undefined, reads('6.018.35').more)).toBe('6,018.35');
    expect(await settleAmount('-$5.00', 'low', undefined, reads('5.00').more)).toBe('-$5.00');
    expect(await settleAmount('\u2014$4,528.59', 'low', undefined, reads('-$4,528.59').more)).toBe('\u2014$4,528.59');
    // A second reading that is no amount (its decimal point lost) contradicts nothing: the third agrees.
    expect(await settleAmount('4.12', 'low', undefined, reads('412', '4.12').more)).toBe('4.12');
    expect(await settleAmount('4.12', 'low', undefined, reads('412', '4.72').more)).toBeNull();
  });

  it('a low-confidence amount read otherwise is never settled by a vote: unreadable, with the values read as alternatives', async () => {
    expect(await settleAmount('3,215.45', 'low', undefined, reads('3,275.45', '3,275.45').more)).toBeNull();
    expect(await settleAmount('9,676.65', 'low', undefined, reads('9,626.65', '9,676.65').more)).toBeNull();
    expect(amountAlternatives('9,676.65', ['9,626.65', '9,676.65'])).toEqual(['9,676.65', '9,626.65']);
    // Written as the first reading is (signs, dollar sign, commas); readings with other signs are no
    // alternative when the values read differ.
    expect(amountAlternatives('-$3,215.45', ['3275.45', '(3,215.45)', '3,21.5', '-3,295.45'])).toEqual(['-$3,215.45', '-$3,275.45', '-$3,295.45']);
    expect(amountAlternatives('not an amount', ['1.00'])).toEqual([]);
    // Every reading has the first's value, only the signs differ (a speck before a balance read as
    // a minus, capstone's 150 dpi scan): the signs read are the alternatives, for the reconciliation.
    expect(amountAlternatives('$8,044.32', ['-$8,044.32', '-$8,044.32'])).toEqual(['$8,044.32', '-$8,044.32']);
    expect(amountAlternatives('96.30', ['(96.30)', '96.30-'])).toEqual(['96.30', '(96.30)', '96.30-']);
    expect(amountAlternatives('$8,044.32', ['-$8,044.32', ''])).toEqual(['$8,044.32', '-$8,044.32']);
  });

  it('three readings that do not agree, or readings that are no amount: unreadable (never a guess)', async () => {
    expect(await settleAmount('1,496.30', 'low', undefined, reads('1,486.30', '1,436.30').more)).toBeNull();
    expect(await settleAmount('1,496.30', 'stray', undefined, reads('', '').more)).toBeNull();
    expect(await settleAmount('1,496.30', 'low', undefined, reads('1,496.3', '1496').more)).toBeNull();
    // Signs that differ between the readings are no agreement.
    expect(await settleAmount('96.30', 'low', undefined, reads('(96.30)', '(96.30)').more)).toBeNull();
    expect(await settleAmount('not an amount', 'low', undefined, reads('1.00').more)).toBeNull();
  });
});

describe('amounts OCR could not settle are chosen by the reconciliation, only when one choice reconciles', () => {
  let f: StatementFixture;
  let items: PageItems[];
  let at: { page: number; item: number; s: string };
  beforeAll(async () => {
    f = (await statementFixtures()).find((x) => x.name === 'front-range-2026-10')!;
    const x = await extractItems(f.bytes, { maxPages: 10, timeoutMs: 20_000, maxHeapMb: 256, maxMemoryMb: 512, maxDecodedBytes: 1e8 });
    if (!x.ok) throw new Error('fixture not read');
    items = x.items;
    // A transaction amount printed once on the statement.
    const all = items.flatMap((p, page) => p.items.map((it, item) => ({ page, item, s: it.s })));
    const once = all.filter((a) => /^\d{1,3}(,\d{3})*\.\d\d$/.test(a.s) && all.filter((b) => b.s === a.s).length === 1);
    at = once[once.length >> 1];
    expect(at).toBeDefined();
  });
  const withDoubt = (alts: string[]) => {
    const copy = items.map((p) => ({ ...p, items: p.items.map((it) => ({ ...it })) }));
    const it = copy[at.page].items[at.item];
    it.s = `${alts[0]}?`;
    it.alt = [[`${alts[0]}?`, ...alts]];
    return copy;
  };
  const off = (s: string, cents: number) => {
    const v = (Math.round(Number(s.replace(/,/g, '')) * 100) + cents) / 100;
    return v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  };

  it('the one value that reconciles is taken, whichever reading gave it', () => {
    const r = chooseAlternatives(withDoubt([off(at.s, 5000), at.s]), 1);
    expect(r?.ok, JSON.stringify(r)).toBe(true);
    if (r?.ok) expect(r.figures).toEqual(f.expected);
  });

  it('no value that reconciles, or more combinations than allowed: none is taken', () => {
    expect(chooseAlternatives(withDoubt([off(at.s, 5000), off(at.s, -90)]), 1)).toBeNull();
    const many = withDoubt([off(at.s, 1), at.s]);
    for (let k = 0; k < 9; k++) many[at.page].items.push({ x: 0, y: 0, w: 1, h: 1, s: 'x', alt: [['x', 'y', 'z']] });
    expect(chooseAlternatives(many, 1)).toBeNull();
  });

  it("a minus in doubt (a sign read too faintly to keep, over ink that is not plainly a dash): with and without it are the alternatives, and only the one that reconciles is taken", () => {
    // A faint "-" word over a dash is the amount's sign; over other ink (a speck touching it) it is in doubt;
    // read confidently it is kept as any word; with no ink under it, or no sign word, nothing changes.
    expect(signBefore('dash', { text: '-', confidence: 0 })).toBe('sign');
    expect(signBefore('other', { text: '-', confidence: 0 })).toBe('doubt');
    expect(signBefore('other', { text: '\u2014', confidence: 30 })).toBe('doubt');
    expect(signBefore('other', { text: '-', confidence: 80 })).toBeNull();
    expect(signBefore('none', { text: '-', confidence: 0 })).toBeNull();
    expect(signBefore('other', { text: '~', confidence: 0 })).toBeNull();
    expect(signBefore('other', null)).toBeNull();
    expect(signAlternatives('$960.00')).toEqual(['$960.00?', '$960.00', '-$960.00']);
    // The statement's amount read without its sign or with a minus: only as printed (unsigned) does it reconcile.
    const [unreadable, ...alts] = signAlternatives(at.s);
    const r = chooseAlternatives(withDoubt(alts), 1);
    expect(unreadable).toBe(`${at.s}?`);
    expect(r?.ok, JSON.stringify(r)).toBe(true);
    if (r?.ok) expect(r.figures).toEqual(f.expected);
  });

  it('several choices that reconcile with the same figures (a sign the row settles either way): taken, the choice changes nothing', () => {
    // Two doubts, each read two ways, on the same amount: whichever is chosen, the reading is the
    // same, so every choice that reconciles has the same figures.
    const copy = withDoubt([at.s, off(at.s, 5000)]);
    copy[at.page].items.push({ x: 0, y: 0, w: 1, h: 1, s: 'x', alt: [['x', 'x', 'x']] });
    const r = chooseAlternatives(copy, 1);
    expect(r?.ok, JSON.stringify(r)).toBe(true);
    if (r?.ok) expect(r.figures).toEqual(f.expected);
  });

  it('no doubt at all: nothing to choose', () => {
    expect(chooseAlternatives(items, 1)).toBeNull();
  });
});

describe('the time per scanned page is a setting (STATEMENT_SCAN_PAGE_MS)', () => {
  const withEnv = (v: string | undefined, f: () => void) => {
    const before = process.env.STATEMENT_SCAN_PAGE_MS;
    if (v === undefined) delete process.env.STATEMENT_SCAN_PAGE_MS;
    else process.env.STATEMENT_SCAN_PAGE_MS = v;
    try {
      f();
    } finally {
      if (before === undefined) delete process.env.STATEMENT_SCAN_PAGE_MS;
      else process.env.STATEMENT_SCAN_PAGE_MS = before;
    }
  };

  it('15 s unset; a positive whole number of milliseconds when set; anything else stops the start', () => {
    withEnv(undefined, () => expect(scanPageMsFromEnv()).toBe(15_000));
    withEnv('', () => expect(scanPageMsFromEnv()).toBe(15_000));
    withEnv('90000', () => expect(scanPageMsFromEnv()).toBe(90_000));
    for (const bad of ['0', '-5', '1e5', '15s', ' 15000', '1.5', '9999999999']) {
      withEnv(bad, () => expect(() => scanPageMsFromEnv(), bad).toThrow(/STATEMENT_SCAN_PAGE_MS must be a positive whole number/));
    }
  });

  it('the tests read scans with 120 s a page (vitest.config.ts), so a loaded machine cannot change a reading', () => {
    expect(DEFAULTS.scanPageMs).toBe(120_000);
  });
});
