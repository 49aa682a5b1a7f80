// The largest document accepted (25 MiB): uploads, attachments filed from an email, and every reader
// of a document's bytes (statement analysis, the submission package) bound themselves by it.
export const MAX_DOCUMENT_BYTES = 26_214_400;
