// Runs in a child process (see ./package.isolated.ts and src/lib/isolated.ts): builds one
// submission package and answers its bytes or the SubmissionPackageError that refused it.
import { readChildInput, writeChildOutput } from '../../lib/isolated';
import { buildSubmissionPackage, SubmissionPackageError, type SubmissionPackageInput } from './package';

export type PackageChildAnswer =
  | { ok: true; bytes: Uint8Array }
  | { ok: false; error: { code: SubmissionPackageError['code']; message: string; filename: string | null; documentIndex: number | null } };

const { input, maxBytes } = await readChildInput<{ input: SubmissionPackageInput; maxBytes?: number }>();
let answer: PackageChildAnswer;
try {
  answer = { ok: true, bytes: await buildSubmissionPackage(input, { maxBytes }) };
} catch (err) {
  answer = err instanceof SubmissionPackageError
    ? { ok: false, error: { code: err.code, message: err.message, filename: err.filename, documentIndex: err.documentIndex } }
    : { ok: false, error: { code: 'build_failed', message: 'Cannot build the submission package: it could not be written.', filename: null, documentIndex: null } };
}
writeChildOutput(answer);
