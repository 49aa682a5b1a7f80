// The package's input (the allow-listed fields it reads), its limits and the error that refuses one.

/** Largest package we build: 20 MiB of PDF (about 27 MiB once base64-encoded into the email). */
export const MAX_PACKAGE_BYTES = 20 * 1024 * 1024;

/** Largest PNG we decode (PNGs are decoded to raw pixels to be embedded; JPEGs are embedded as they are). */
export const MAX_PNG_PIXELS = 30_000_000;

/**
 * Pages one document may bring (a 12-month statement set is well under 100), and pages in a whole
 * package. A document over its cap, or a package over its cap, is refused like any document that
 * cannot be packaged (the error names the file): 25,000 empty pages cost 3 MB of PDF and 25 s of
 * copying and stamping.
 */
export const MAX_DOCUMENT_PAGES = 500;
export const MAX_PACKAGE_PAGES = 2000;

export const PACKAGE_CREATOR = 'Svc submissions';
export const PACKAGE_PRODUCER = 'Svc submission package 1.0 (pdf-lib 1.17)';

// ---------------------------------------------------------------------------------------------
// Input

/** The business, as in the Business schema (snake_case, so a mapped row can be passed as it is). */
export interface PackageBusiness {
  legal_name: string;
  dba?: string | null;
  entity_type?: string | null;
  industry?: string | null;
  ein?: string | null;
  address?: string | null;
  city?: string | null;
  state?: string | null;
  zip?: string | null;
  phone?: string | null;
  business_start_date?: string | null;
}

/** The funding request, as in the Deal schema. */
export interface PackageDeal {
  requested_amount?: number | null;
  product_type?: string | null;
  use_of_funds?: string | null;
  desired_term_months?: number | null;
  desired_frequency?: string | null;
  annual_revenue?: number | null;
  /** Average monthly revenue when known (for example from statement analysis); else annual / 12 is shown. */
  monthly_revenue?: number | null;
  state_incorporated?: string | null;
}

/**
 * An owner, as in a business's `people` include. Only these fields are read: a Person object with
 * `dob`, `ssn_masked`, `credit_score`, address or contact fields can be passed and none of them is
 * printed.
 */
export interface PackageOwner {
  full_name?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  role?: string | null;
  ownership_percent?: number | null;
}

export interface PackageDocument {
  /** File name as uploaded; shown in the summary and in each page's stamp. */
  filename: string;
  content: Uint8Array;
  /** Document category (bank_statement, application, ...), shown in the summary when given. */
  category?: string | null;
}

export interface SubmissionPackageInput {
  traceCode: string;
  generatedAt: Date;
  location: { name: string };
  /** The lender the package is for; printed as "Prepared for" when given. */
  lender?: { name: string } | null;
  business: PackageBusiness;
  deal: PackageDeal;
  owners: PackageOwner[];
  documents: PackageDocument[];
}

export type SubmissionPackageErrorCode =
  | 'invalid_input'
  | 'unsupported_document'
  | 'corrupt_document'
  | 'encrypted_document'
  | 'image_too_large'
  | 'too_many_pages'
  | 'package_too_large'
  | 'build_failed';

/** Why a package cannot be built. `filename` (and `documentIndex`) name the document at fault, if any. */
export class SubmissionPackageError extends Error {
  override readonly name = 'SubmissionPackageError';
  constructor(
    readonly code: SubmissionPackageErrorCode,
    message: string,
    readonly filename: string | null = null,
    readonly documentIndex: number | null = null,
  ) {
    super(message);
  }
}

// pdf-lib yields to the event loop (a setTimeout, 1 ms or more) every N objects while parsing and
// writing; the defaults (100 and 50) add tens of ms to a PDF of a few thousand objects. These still
// yield every few ms of work, so a package never blocks the worker's event loop for long. (The
// parse speed, pdf-lib's ParseSpeeds.Fast, is set in documents.ts: this file loads no pdf-lib, so
// that the API process, which only reads the limits and the error here, does not load it at start.)
export const OBJECTS_PER_TICK = 1000;
