// The submission package: the one PDF attached to a lender email. A deal summary page, then every
// page of each chosen document (PDFs page by page, PNG/JPEG images one per page), with the
// submission's trace code stamped on every page and in the PDF metadata (Keywords).
//
// Rules kept here:
// - Only allow-listed fields reach the page. Owners are shown by name, role and ownership share;
//   SSN, date of birth, credit score and personal contact details are never read from the input.
// - Text is drawn with the standard Helvetica fonts (WinAnsi). Anything they cannot encode (emoji,
//   CJK, other scripts) is transliterated when Unicode decomposition allows (é stays é, ŵ becomes w)
//   and otherwise replaced with '?', never thrown. Every value is wrapped and truncated to its slot.
// - Document pages are never drawn over: the stamp goes on a strip added below the page's visible
//   area (on the edge that is the bottom as the page is displayed, whatever its /Rotate).
// - Input is refused with a SubmissionPackageError naming the file, never a crash: anything but PDF,
//   PNG or JPEG (sniffed from the bytes, not the name); a PDF that cannot be parsed, has no pages or
//   is encrypted; an image that cannot be decoded or is too large to decode; a package over
//   MAX_PACKAGE_BYTES.
// - Output is deterministic for a given input: metadata dates come from `generatedAt`, pdf-lib's
//   resource names come from its seeded generator, and nothing else varies.
//
// The entry importers use (the isolated build's child loads it too); the work is in ./package/:
// model.ts (input, limits, error), documents.ts (sniff and load), layout.ts (geometry, text fitting),
// format.ts (how values read), pages.ts (the summary and image pages), stamp.ts (the trace-code
// strip), active-content.ts (nothing can run), build.ts (buildSubmissionPackage, in that order).
export {
  MAX_DOCUMENT_PAGES,
  MAX_PACKAGE_BYTES,
  MAX_PACKAGE_PAGES,
  MAX_PNG_PIXELS,
  PACKAGE_CREATOR,
  PACKAGE_PRODUCER,
  SubmissionPackageError,
  type PackageBusiness,
  type PackageDeal,
  type PackageDocument,
  type PackageOwner,
  type SubmissionPackageErrorCode,
  type SubmissionPackageInput,
} from './package/model';
export { toWinAnsi } from './package/layout';
export { stripActiveContent } from './package/active-content';
export { buildSubmissionPackage } from './package/build';
