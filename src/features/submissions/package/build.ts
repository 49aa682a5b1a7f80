// buildSubmissionPackage: reads every document, lays out the summary, copies and stamps each page,
// strips active content, sets the metadata and checks the size.
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { isTraceCode } from '../trace-code';
import { MAX_PACKAGE_BYTES, MAX_PACKAGE_PAGES, OBJECTS_PER_TICK, PACKAGE_CREATOR, PACKAGE_PRODUCER, SubmissionPackageError, type SubmissionPackageInput } from './model';
import { type Fonts, LETTER, toWinAnsi } from './layout';
import { CATEGORIES, humanize, money, present, product } from './format';
import { loadDocument, type LoadedDoc } from './documents';
import { stampDocumentPage, stampOwnPage } from './stamp';
import { stripActiveContent } from './active-content';
import { addImagePage, type DocRow, drawSummary } from './pages';

/**
 * Builds the submission package PDF. `options.maxBytes` (default MAX_PACKAGE_BYTES) caps its size.
 * Throws SubmissionPackageError (with the file named) for a
 * document that cannot be packaged and for a package over MAX_PACKAGE_BYTES; never anything else for
 * bad documents.
 */
export async function buildSubmissionPackage(
  input: SubmissionPackageInput,
  options: { maxBytes?: number } = {},
): Promise<Uint8Array> {
  const maxBytes = options.maxBytes ?? MAX_PACKAGE_BYTES;
  const code = input?.traceCode;
  if (typeof code !== 'string' || !isTraceCode(code)) {
    throw new SubmissionPackageError('invalid_input', `Cannot build the submission package: "${String(code)}" is not a trace code.`);
  }
  if (!(input.generatedAt instanceof Date) || Number.isNaN(input.generatedAt.getTime())) {
    throw new SubmissionPackageError('invalid_input', 'Cannot build the submission package: generatedAt is not a valid date.');
  }
  if (!input.business || !present(input.business.legal_name)) {
    throw new SubmissionPackageError('invalid_input', 'Cannot build the submission package: the business has no legal name.');
  }
  const documents = Array.isArray(input.documents) ? input.documents : [];
  const inputBytes = documents.reduce((n, d) => n + (d?.content?.length ?? 0), 0);
  if (inputBytes > maxBytes) {
    // Refused before parsing anything: the package would be at least this large.
    throw new SubmissionPackageError(
      'package_too_large',
      `Cannot build the submission package: the documents add up to ${mb(inputBytes)}; a package can be at most ${mb(maxBytes)}. Choose fewer or smaller documents.`,
    );
  }

  // Pass 1: read every document (refusing bad ones) so the page count is known before stamping.
  const loaded: LoadedDoc[] = [];
  for (let i = 0; i < documents.length; i++) loaded.push(await loadDocument(documents[i], i));
  const total = 1 + loaded.reduce((n, d) => n + d.pages, 0);
  if (total > MAX_PACKAGE_PAGES) {
    throw new SubmissionPackageError(
      'too_many_pages',
      `Cannot build the submission package: it would have ${total} pages; a package can have at most ${MAX_PACKAGE_PAGES}. Choose fewer documents.`,
    );
  }

  const out = await PDFDocument.create({ updateMetadata: false });
  const regular = await out.embedFont(StandardFonts.Helvetica);
  const bold = await out.embedFont(StandardFonts.HelveticaBold);
  const fonts: Fonts = { regular, bold, charset: new Set(regular.getCharacterSet()) };

  // The summary page comes first; it lists where each document starts.
  const summary = out.addPage(LETTER);
  const rows: DocRow[] = [];
  let next = 2;
  for (const d of loaded) {
    const range = d.pages === 1 ? `${next}` : `${next}–${next + d.pages - 1}`;
    const label = present(d.category) ? (CATEGORIES[d.category] ?? humanize(d.category)) : null;
    const what = d.kind === 'pdf' ? 'PDF' : `${d.kind.toUpperCase()} image`;
    rows.push({ filename: d.filename, what: toWinAnsi(label ? `${label}, ${what}` : what, fonts.charset), pages: range });
    next += d.pages;
  }
  drawSummary(summary, fonts, input, rows);
  stampOwnPage(summary, fonts, code, 1, total, 'Deal summary');

  // Pass 2: copy, place and stamp each document's pages.
  let pageNo = 2;
  for (const d of loaded) {
    const label = toWinAnsi(d.filename, fonts.charset);
    try {
      if (d.kind === 'pdf') {
        const copies = await out.copyPages(d.src, d.src.getPageIndices());
        copies.forEach((page, k) => {
          out.addPage(page);
          stampDocumentPage(page, fonts, code, pageNo, total, `${label} (${k + 1}/${d.pages})`);
          pageNo++;
        });
      } else {
        const image = d.kind === 'png' ? await out.embedPng(d.bytes) : await out.embedJpg(d.bytes);
        const page = addImagePage(out, image, d.orientation);
        stampOwnPage(page, fonts, code, pageNo, total, label);
        pageNo++;
      }
    } catch (err) {
      if (err instanceof SubmissionPackageError) throw err;
      const what = d.kind === 'pdf' ? 'the PDF is damaged and cannot be read' : `the ${d.kind.toUpperCase()} image is damaged`;
      throw new SubmissionPackageError('corrupt_document', `Cannot add "${d.filename}" to the submission package: ${what}.`, d.filename, d.index);
    }
  }

  stripActiveContent(out);

  // Metadata. Keywords carry the trace code; dates are generatedAt, so the output is reproducible.
  const name = String(input.business.legal_name).trim();
  out.setTitle(`Deal submission ${code}: ${name}`);
  out.setSubject(
    `${product(input.deal?.product_type)} request for ${money(input.deal?.requested_amount)} by ${name}` +
      (input.lender && present(input.lender.name) ? `, submitted to ${input.lender.name}` : ''),
  );
  out.setAuthor(String(input.location?.name ?? ''));
  out.setKeywords([code, 'deal submission']);
  out.setCreator(PACKAGE_CREATOR);
  out.setProducer(PACKAGE_PRODUCER);
  out.setCreationDate(input.generatedAt);
  out.setModificationDate(input.generatedAt);
  out.setLanguage('en-US');

  let bytes: Uint8Array;
  try {
    bytes = await out.save({ useObjectStreams: true, updateFieldAppearances: false, objectsPerTick: OBJECTS_PER_TICK });
  } catch {
    // Writing only fails on objects copied from a source document that pdf-lib could parse but not write.
    throw new SubmissionPackageError('corrupt_document', 'Cannot build the submission package: one of the PDFs is damaged and cannot be written.');
  }
  if (bytes.length > maxBytes) {
    throw new SubmissionPackageError(
      'package_too_large',
      `Cannot build the submission package: it would be ${mb(bytes.length)}; a package can be at most ${mb(maxBytes)}. Choose fewer or smaller documents.`,
    );
  }
  return bytes;
}

function mb(n: number): string {
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}
