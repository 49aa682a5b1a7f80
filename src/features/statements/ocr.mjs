// OCR of scanned statements, inside the statement reader process (./pdf-text.child.mjs, run with
// time and memory limits by ./extract.ts through src/lib/isolated.ts). Offline: tesseract.js runs
// its WebAssembly build from node_modules with the English LSTM data of the @tesseract.js-data/eng
// package (langPath points at the package's files, no cache is read or written, nothing is
// fetched).
//
// A page image comes from the PDF itself (the largest image pdf.js decodes on the page, placed where
// the page's content stream puts it) or from an uploaded PNG or JPEG (wrapped into a one-page PDF,
// a Letter-width page, so both take the same path). Each image is turned upright, made grey, brought
// to about 300 dpi, binarised (Otsu), straightened (the skew angle that makes text rows the
// sharpest, within ±6°), cleaned of isolated specks and of ruled lines (long thin runs of ink that
// would otherwise strike through the text), and read by tesseract. Its words, with their boxes and
// the line's baseline and height, become positioned text items in page points (x, y of the
// baseline from the top left, width, font size), exactly what the text-layer path gives the
// reader (./read.ts). A doubtful amount (low confidence, a stray mark at its edge, ink beside it its
// characters do not explain) is cut out (its own line's band of ink only), enlarged and read again
// as digits and signs: kept when a second reading agrees, else unreadable ("?") with the values
// read as alternatives (`Item.alt`; the signs read, when every reading has its value), of which
// ./analyze.ts takes a combination only when exactly one reconciles. A dash read alone after a
// description (a speck) is dropped: a sign is printed beside its amount. Nothing here decides a
// figure: a misread amount or date ends in the reconciliation's refusal.
//
// The work is in ./ocr/: image.mjs (page images), clean.mjs (specks and ruled lines), deskew.mjs,
// rules.mjs (rule remnants, marks beside words, a line's baseline from its ink), recognize.mjs (tesseract, words to positioned
// items), reread.mjs (doubtful amounts read again), words.mjs (what a recognized word becomes).
export { imagePdf, imageSize } from './ocr/image.mjs';
export { rotate } from './ocr/deskew.mjs';
export { baselineLift, inkBaseline, ruleRemnants } from './ocr/rules.mjs';
export { fixDates, inkless, ocrText, strayDash, strayMarks } from './ocr/words.mjs';
export { amountAlternatives, amountParts, inkBand, settleAmount, signAlternatives, signBefore } from './ocr/reread.mjs';
export { forgetPrepared, knobs, langPath, ocrPdf } from './ocr/recognize.mjs';
export { keepRecovered, recoverBlock, uncoveredStrips } from './ocr/recover.mjs';
