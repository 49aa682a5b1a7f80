import { childEntry, runIsolated } from '../../lib/isolated';
// The model only (limits, input, error), not ./package's entry: that loads pdf-lib, which only the child needs.
import { MAX_PACKAGE_BYTES, SubmissionPackageError, type SubmissionPackageInput } from './package/model';
import type { PackageChildAnswer } from './package.child';

// The submission package built off the event loop: ./package.child.ts in a child process with a
// heap limit, a whole-process memory limit and a wall-clock limit (src/lib/isolated.ts), so a
// merchant PDF with thousands of pages or a costly structure never stalls the API's requests. Page
// caps (MAX_DOCUMENT_PAGES, MAX_PACKAGE_PAGES) are enforced inside, by buildSubmissionPackage.

/** Limits of one build: 20 s (the mail attempt's budget for its attachments), a 512 MB heap, 1 GB in all. */
export const PACKAGE_BUILD_LIMITS = { timeoutMs: 20_000, maxHeapMb: 512, maxMemoryMb: 1024 } as const;

const CHILD = childEntry('package.child', import.meta.url);

/** Same answers as buildSubmissionPackage; a build stopped at a limit is a SubmissionPackageError `build_failed`. */
export async function buildSubmissionPackageIsolated(
  input: SubmissionPackageInput,
  options: { maxBytes?: number; signal?: AbortSignal; limits?: Partial<Record<keyof typeof PACKAGE_BUILD_LIMITS, number>> } = {},
): Promise<Uint8Array> {
  const limits = { ...PACKAGE_BUILD_LIMITS, ...options.limits };
  const maxBytes = options.maxBytes ?? MAX_PACKAGE_BYTES;
  const r = await runIsolated<PackageChildAnswer>(CHILD, { input, maxBytes }, { ...limits, signal: options.signal, maxOutputBytes: maxBytes + 1024 * 1024 });
  if (!r.ok) {
    const why = r.reason === 'timeout' ? `took longer than ${limits.timeoutMs / 1000} s` : 'needed more memory than a package may use';
    throw new SubmissionPackageError('build_failed', `Cannot build the submission package: building it ${why}. Choose fewer or smaller documents.`);
  }
  if (r.value.ok) return r.value.bytes;
  const e = r.value.error;
  throw new SubmissionPackageError(e.code, e.message, e.filename, e.documentIndex);
}
