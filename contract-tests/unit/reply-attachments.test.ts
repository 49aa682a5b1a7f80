import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { ATTACHMENT_DEFAULTS, readPdfAttachments } from '../../src/features/inbound/attachments';
import { classifyReply } from '../../src/features/inbound/classifier';
import { INBOUND_MAX_BYTES } from '../../src/features/inbound/inbound.service';
import { DEFAULTS as STATEMENT_LIMITS } from '../../src/features/statements/analyze';
import { composeReply, offerPdf, termSheet, type MailAttachment } from '../support/offer-pdfs';
import { bombPdf, passwordPdf } from '../support/statement-fixtures';

// The text of a lender reply's PDF attachments (src/features/inbound/attachments.ts), read by the
// real reader child process on real PDFs (pdf-lib) in real MIME messages (MailComposer), and how
// the classifier uses it (offer terms only; the body decides). The end-to-end rules (offers logged,
// matching by a code in a PDF, the API's answers) are in contract-tests/api/inbound-attachments.test.ts.

const parse = async (attachments: MailAttachment[], text = 'See attached.') =>
  simpleParser(await composeReply({ to: 'deals@northwind.example', subject: 'RE: Sunrise Bakery', text, attachments }));
const sheet = (amount = '$50,000.00') => termSheet({ amount, factor: '1.35', term: '180 days', payment: '$375.00' });

describe('reading the PDF attachments of a reply', () => {
  it('has the bounds of statement reading, and the inbound size limit per file', () => {
    for (const k of ['maxPages', 'timeoutMs', 'maxHeapMb', 'maxMemoryMb', 'maxDecodedBytes'] as const) expect(ATTACHMENT_DEFAULTS[k]).toBe(STATEMENT_LIMITS[k]);
    expect(ATTACHMENT_DEFAULTS.maxBytes).toBe(INBOUND_MAX_BYTES);
    expect(ATTACHMENT_DEFAULTS.maxPdfs).toBe(5);
  });

  it('reads a term sheet line by line, a wide gap between runs as a tab; by content type or a .pdf name', async () => {
    const pdf = await sheet();
    const r = await readPdfAttachments(
      await parse([
        { filename: 'offer.pdf', content: pdf },
        { filename: 'Term Sheet.PDF', content: pdf, contentType: 'application/octet-stream' },
        { filename: 'notes.txt', content: 'Funding Amount $90,000', contentType: 'text/plain' },
      ]),
    );
    expect(r.read).toEqual([{ name: 'offer.pdf', pages: 1 }, { name: 'Term Sheet.PDF', pages: 1 }]);
    expect(r.skipped).toEqual([]);
    expect(r.text.split('\n\n')[0]).toBe(
      'Atlas Funding - Offer Letter\nMerchant: Sunrise Bakery LLC\nFunding Amount\t$50,000.00\nFactor Rate\t1.35\nTerm\t180 days\nDaily Payment\t$375.00\nThis offer is valid for 7 days.',
    );
    expect(r.text).not.toContain('90,000');
    expect(r.notes).toEqual(['attachment "offer.pdf" read (1 page)', 'attachment "Term Sheet.PDF" read (1 page)']);
  });

  it('reads a PDF inside a forwarded message, attached or inline', async () => {
    const inner = await composeReply({ from: 'uw@atlas.example', to: 'dana@atlas.example', subject: 'offer', text: 'terms attached', attachments: [{ filename: 'uw-offer.pdf', content: await sheet('$61,000.00') }] });
    for (const disposition of ['attachment', 'inline'] as const) {
      const r = await readPdfAttachments(await parse([{ filename: 'fwd.eml', content: inner, contentType: 'message/rfc822', contentDisposition: disposition }], 'See below from UW'));
      expect(r.read, disposition).toEqual([{ name: 'uw-offer.pdf', pages: 1 }]);
      expect(r.text).toContain('Funding Amount\t$61,000.00');
    }
  });

  it('skips what cannot be read, says why, and reads the rest: password, garbage, not a PDF, a scan, a bomb, too many pages, too large', async () => {
    const scan = await offerPdf(['x']);
    const r = await readPdfAttachments(
      await parse([
        { filename: 'locked.pdf', content: passwordPdf() },
        { filename: 'garbage.pdf', content: Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.from(Array.from({ length: 4000 }, (_, i) => (i * 7919) % 256))]) },
        { filename: 'word.pdf', content: 'PK\u0003\u0004 a docx renamed', contentType: 'application/pdf' },
        { filename: 'scan.pdf', content: scan },
        { filename: 'bomb.pdf', content: bombPdf() },
      ]),
      { timeoutMs: 5_000, maxHeapMb: 64, maxMemoryMb: 256 },
    );
    expect(r.read).toEqual([]);
    expect(r.skipped.map((s) => [s.name, s.code])).toEqual([
      ['locked.pdf', 'encrypted'],
      ['garbage.pdf', 'unreadable'],
      ['word.pdf', 'not_pdf'],
      ['scan.pdf', 'no_text_layer'],
      ['bomb.pdf', expect.stringMatching(/^(too_complex|timeout|resource_limit)$/)],
    ]);
    expect(r.notes[0]).toBe('attachment "locked.pdf" not read: password protected');
    expect(r.text).toBe('');

    const pdf = await sheet();
    const limited = await readPdfAttachments(await parse([{ filename: 'big.pdf', content: pdf }, { filename: 'long.pdf', content: await offerPdf(['Funding Amount $50,000 factor 1.35 180 days'], { pages: 3 }) }, { filename: 'ok.pdf', content: pdf }]), {
      maxBytes: pdf.length - 1 + 10_000, maxPages: 2,
    });
    expect(limited.skipped.map((s) => [s.name, s.code])).toEqual([['long.pdf', 'too_many_pages']]);
    const tooLarge = await readPdfAttachments(await parse([{ filename: 'big.pdf', content: pdf }]), { maxBytes: pdf.length - 1 });
    expect(tooLarge.skipped).toEqual([{ name: 'big.pdf', code: 'too_large' }]);
    expect(tooLarge.notes).toEqual(['attachment "big.pdf" not read: larger than the inbound size limit']);
  });

  it('our own submission package attached back is read for its trace code, not for offer terms', async () => {
    const ours = await offerPdf([
      'DEAL SUBMISSION', 'Sunrise Bakery LLC', 'Reference SVC-7K3M-9Q2P', ['Amount requested', '$75,000.00'], ['Factor rate', '1.35'], ['Desired term', '180 days'],
      'Please quote reference SVC-7K3M-9Q2P in every reply about this deal.',
    ]);
    const r = await readPdfAttachments(await parse([{ filename: 'Sunrise Bakery LLC - SVC-7K3M-9Q2P.pdf', content: ours }, { filename: 'offer.pdf', content: await sheet('$52,000.00') }]));
    expect(r.text).toContain('SVC-7K3M-9Q2P');
    expect(r.text).toContain('$52,000.00');
    expect(r.offerText).not.toContain('SVC-7K3M-9Q2P');
    expect(r.offerText).not.toContain('$75,000.00');
    expect(r.offerText).toContain('$52,000.00');
    expect(r.notes[0]).toBe('attachment "Sunrise Bakery LLC - SVC-7K3M-9Q2P.pdf" read (1 page): our own submission package, read for its trace code only');
  });

  it('reads only the first N PDFs of a message, and notes the rest', async () => {
    const pdfs = await Promise.all([1, 2, 3, 4].map((n) => termSheet({ amount: `$${n}0,000.00`, factor: '1.3', term: '100 days' })));
    const r = await readPdfAttachments(await parse(pdfs.map((content, i) => ({ filename: `offer-${i + 1}.pdf`, content }))), { maxPdfs: 3 });
    expect(r.read.map((x) => x.name)).toEqual(['offer-1.pdf', 'offer-2.pdf', 'offer-3.pdf']);
    expect(r.text).toContain('$30,000.00');
    expect(r.text).not.toContain('$40,000.00');
    expect(r.notes.at(-1)).toBe('1 more PDF attachment(s) not read: only the first 3 of a message are');
  });

  it('stops starting readings once the time budget is spent', async () => {
    const pdf = await sheet();
    let t = 0;
    const clock = () => (t += 10_000); // every look at the clock: 10 s later
    const r = await readPdfAttachments(await parse([1, 2, 3].map((n) => ({ filename: `o${n}.pdf`, content: pdf }))), { totalMs: 25_000 }, clock);
    // started at 10 s; first look 20 s (15 s left), second 30 s (5 s left), third 40 s (none)
    expect(r.read.map((x) => x.name)).toEqual(['o1.pdf', 'o2.pdf']);
    expect(r.skipped).toEqual([{ name: 'o3.pdf', code: 'out_of_time' }]);
  });
});

describe('the classifier reads attachment text for offer terms only', () => {
  const attachmentText = 'Atlas Funding - Offer Letter\nFunding Amount\t$50,000.00\nFactor Rate\t1.35\nTerm\t180 days\nDaily Payment\t$375.00';
  const offer = { amount: 50000, factor_rate: 1.35, term: 180, term_unit: 'days', payment_amount: 375, missing: [] };

  it('an approval whose terms are only in the attachment gets them', () => {
    const c = classifyReply({ subject: 'RE: Sunrise Bakery', text: 'Approved! See attached offer.', attachmentText });
    expect(c.type).toBe('approved');
    expect(c.offers).toEqual([expect.objectContaining(offer)]);
    expect(c.reasons).toContain('1 offer(s) with terms in the attached PDF');
    expect(classifyReply({ subject: 'RE: Sunrise Bakery', text: 'Approved! See attached offer.' }).offers).toEqual([]);
  });

  it('a reply that only points at the attached offer is an approval; one that acknowledges, asks or is away is not', () => {
    expect(classifyReply({ subject: 'RE: Sunrise Bakery', text: 'Please see the attached offer letter.', attachmentText })).toMatchObject({ type: 'approved', offers: [expect.objectContaining(offer)] });
    expect(classifyReply({ subject: 'RE: Sunrise Bakery', text: 'Please see the attached offer letter.' }).type).toBe('unclassified');
    for (const text of ['Got it, will review. Attached our term sheet.', 'Will review and get back to you. Attached our rate sheet.', 'I am out of the office until Monday. Attached is our rate sheet.', 'Thanks for the file.']) {
      expect(classifyReply({ subject: 'RE: Sunrise Bakery', text, attachmentText }), text).toMatchObject({ type: 'unclassified', offers: [] });
    }
    expect(classifyReply({ subject: 'RE: Sunrise Bakery', text: 'We need the October statement, see attached term sheet.', attachmentText })).toMatchObject({ type: 'needs_info', offers: [] });
  });

  it('a decline with a stale term sheet attached stays a decline, without offers', () => {
    for (const text of ['Unfortunately we have to decline, too many negative days.', 'Declined - see attached.', 'Minimum is 12 months in business, see attached guidelines.', 'Pass on this one. Attached is the term sheet from the first look.']) {
      const c = classifyReply({ subject: 'RE: Sunrise Bakery', text, attachmentText });
      expect(c, text).toMatchObject({ type: 'declined', offers: [] });
      expect(c.reasons).toContain('offer terms in the attachment not used: the reply itself is not an approval');
    }
  });

  it('a counter whose terms are only in the attachment is weighed with them, as with terms in the body', () => {
    const text = "We can't do the full amount, best we can do is attached.";
    expect(classifyReply({ subject: 'RE: Sunrise Bakery', text }).type).toBe('unclassified');
    expect(classifyReply({ subject: 'RE: Sunrise Bakery', text, attachmentText })).toMatchObject({ type: 'counter', offers: [expect.objectContaining(offer)] });
  });

  it('terms stated in the body win over the attachment', () => {
    const c = classifyReply({ subject: 'RE: Sunrise Bakery', text: 'Approved: $40,000 at 1.30 factor, 120 days, see attached.', attachmentText });
    expect(c.type).toBe('approved');
    expect(c.offers).toEqual([expect.objectContaining({ amount: 40000, factor_rate: 1.3, term: 120 })]);
  });
});
