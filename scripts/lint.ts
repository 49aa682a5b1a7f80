/**
 * `npm run lint`: Redocly lint of openapi.yaml that fails on ANY problem, warnings included.
 *
 * `redocly lint` exits 0 when it only finds warnings, so this wrapper runs it with `--format=json`
 * and fails when `totals.errors + totals.warnings > 0`. Problems listed in
 * `.redocly.lint-ignore.yaml` are reported by Redocly as `totals.ignored` and do not count.
 * Extra arguments are passed through (`npm run lint -- --skip-rule=...`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location?: Array<{ source?: { ref?: string }; pointer?: string }>;
}
interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: LintProblem[];
}

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const redocly = join(root, 'node_modules', '.bin', 'redocly');
if (!existsSync(redocly)) {
  console.error('lint: node_modules/.bin/redocly not found; run `npm install` first.');
  process.exit(2);
}

const args = ['lint', 'openapi.yaml', '--format=json', '--max-problems=1000', ...process.argv.slice(2)];
const run = spawnSync(redocly, args, {
  cwd: root,
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
  env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
});

let report: LintReport;
try {
  const out = run.stdout ?? '';
  report = JSON.parse(out.slice(out.indexOf('{'))) as LintReport;
} catch {
  // Not a JSON report: the document could not be read, or redocly itself failed.
  process.stderr.write(run.stderr ?? '');
  process.stdout.write(run.stdout ?? '');
  console.error(`lint: redocly did not produce a JSON report (exit ${run.status ?? run.signal}).`);
  process.exit(run.status || 1);
}

const { errors, warnings, ignored } = report.totals;
for (const p of report.problems) {
  const where = p.location?.[0];
  const file = where?.source?.ref ? relative(root, where.source.ref) || where.source.ref : 'openapi.yaml';
  console.log(`${p.severity === 'error' ? 'error' : 'warning'}  ${p.ruleId}  ${file}${where?.pointer ?? ''}\n         ${p.message}`);
}
const summary = `openapi.yaml: ${errors} error(s), ${warnings} warning(s), ${ignored} ignored (listed in .redocly.lint-ignore.yaml)`;
if (errors + warnings > 0 || run.status !== 0) {
  console.error(`${summary}\nlint failed: the style guide allows no errors and no warnings.`);
  process.exit(1);
}
console.log(`${summary}\nlint passed.`);
