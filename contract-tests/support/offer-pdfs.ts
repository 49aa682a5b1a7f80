import MailComposer from 'nodemailer/lib/mail-composer';
import { PDFDocument, StandardFonts } from 'pdf-lib';

// PDFs a lender attaches to a reply (an offer letter, a term sheet), built with pdf-lib, and raw
// replies carrying them built with nodemailer's MailComposer, as the reply corpus is.

/**
 * A one-page PDF. Each line is a string, or [label, value] drawn as two columns (a term sheet's
 * table: the value 200 points to the right of its label).
 */
export async function offerPdf(lines: (string | [string, string])[], o: { pages?: number } = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let p = 0; p < (o.pages ?? 1); p++) {
    const page = doc.addPage([612, 792]);
    lines.forEach((l, i) => {
      const y = 720 - i * 18;
      if (typeof l === 'string') page.drawText(l, { x: 56, y, size: 11, font });
      else {
        page.drawText(l[0], { x: 56, y, size: 11, font });
        page.drawText(l[1], { x: 256, y, size: 11, font });
      }
    });
  }
  return doc.save();
}

/** A term sheet as lenders send them: a heading, the terms in two columns, the trace code when given. */
export function termSheet(t: { amount: string; factor: string; term: string; payment?: string; trace?: string; heading?: string }): Promise<Uint8Array> {
  return offerPdf([
    t.heading ?? 'Atlas Funding - Offer Letter',
    'Merchant: Sunrise Bakery LLC',
    ...(t.trace ? [`Reference: ${t.trace}`] : []),
    ['Funding Amount', t.amount],
    ['Factor Rate', t.factor],
    ['Term', t.term],
    ...(t.payment ? [['Daily Payment', t.payment] as [string, string]] : []),
    'This offer is valid for 7 days.',
  ]);
}

export interface MailAttachment {
  filename: string;
  content: Uint8Array | Buffer | string;
  contentType?: string;
  contentDisposition?: 'attachment' | 'inline';
}

export function composeReply(o: {
  from?: string; to: string; subject: string; text?: string; html?: string; inReplyTo?: string; attachments?: MailAttachment[]; messageId?: string; headers?: Record<string, string>;
}): Promise<Buffer> {
  return new MailComposer({
    from: o.from ?? 'Dana Reyes <dana@atlas.example>', to: o.to, subject: o.subject, text: o.text, html: o.html, inReplyTo: o.inReplyTo, references: o.inReplyTo,
    headers: o.headers, messageId: o.messageId ?? `<${Math.random().toString(36).slice(2)}@atlas.example>`,
    attachments: (o.attachments ?? []).map((a) => ({
      filename: a.filename, content: typeof a.content === 'string' ? a.content : Buffer.from(a.content), contentType: a.contentType ?? 'application/pdf', contentDisposition: a.contentDisposition,
    })),
  }).compile().build();
}
