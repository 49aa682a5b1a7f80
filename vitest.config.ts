import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// Four projects: the contract itself (spec rules, Prism sandbox, client types), engine-free units
// (statement parsing, storage back ends, and the api files that never open a database), and the
// real server's contract tests against PostgreSQL and against the embedded engine (each engine as
// two projects: `postgres` / `pglite`, and `*-own-process` for the files listed in OWN_PROCESS).
//
// A rule is tested on every engine where its outcome can differ, and only there. The lists below
// name files (they are not moved, so edits to them merge as usual); a file that mixes
// engine-dependent and engine-independent tests stays on both engines, its engine-free tests
// skipped on the embedded one (`it.skipIf(ENGINE !== 'pg')`, with the reason beside it).

/** api files that open no database at all: plain units, run once. */
const NO_DATABASE = ['contract-tests/api/classifier.test.ts', 'contract-tests/api/submission-package.test.ts'];

/**
 * api files whose every test checks behaviour the engine cannot change (parsing and building mail,
 * the outbound address policy, an HTTP adapter against a loopback funder, the webhook listener, the
 * SMTP listener, pages in a browser): the database under them only stores rows through the same
 * Knex code. Run on PostgreSQL only, the production engine.
 */
const ENGINE_INDEPENDENT = [
  'contract-tests/api/mail-parts.test.ts',
  'contract-tests/api/outbound.test.ts',
  'contract-tests/api/funder-http.test.ts',
  'contract-tests/api/listen.test.ts',
  'contract-tests/api/inbound-smtp.test.ts',
  'contract-tests/api/oauth-browser.test.ts',
  'contract-tests/api/portal-browser.test.ts',
  'contract-tests/api/reference-browser.test.ts',
  // The settings and operations pages in Chromium (axe-core at two widths, copying a key, the CSP):
  // the pages' HTML and scripts are the same on both engines; every flow they drive (sign-in, keys,
  // grants, webhooks, the review queue) runs on both engines without a browser in app.test.ts and
  // app-ops.test.ts.
  'contract-tests/api/app-browser.test.ts',
  'contract-tests/api/app-ops-browser.test.ts',
  // The S3 back end (presigned URLs, what reached the bucket, the portal's CSP): the document rows
  // and the analysis jobs are the ones documents.test.ts and statements.test.ts run on both engines.
  'contract-tests/api/documents-s3.test.ts',
  // Reading a reply's PDF attachments (offer terms, trace codes, unreadable files, the 5-PDF cap):
  // storing a reply, matching it and logging its offer run on both engines in inbound.test.ts.
  'contract-tests/api/inbound-attachments.test.ts',
];

/** api files whose every test needs PostgreSQL (several processes on one database, the client tarball). */
const POSTGRES_ONLY = ['contract-tests/api/client-package.test.ts', 'contract-tests/api/sandbox-parity.test.ts', 'contract-tests/api/scale-out.test.ts'];

// The AWS SDK warns on Node 20 that its releases after January 2027 need Node 22: true, and said
// in README.md, but in every test log it reads as a problem. Its documented switch; the test
// processes and the servers they start inherit it.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
// OCR's time per scanned page (15 s in service) is a resource limit, not behaviour under test: on
// a 2-core machine running two test files at once a page can take several times its CPU time, and a
// scan cut short by the clock would be read differently. Tests that check the limit pass their own.
process.env.STATEMENT_SCAN_PAGE_MS ??= '120000';

/**
 * What a library prints to the console when a test provokes that very failure on purpose (and
 * asserts the outcome): dropped from the log, where it reads as a problem. Only this text, only in
 * that file; anything else printed anywhere stays.
 */
const PROVOKED: [file: string, text: RegExp][] = [
  ['contract-tests/api/overload.test.ts', /^Acquire connection error: Error: operation timed out/], // knex, when no connection frees up
  ['contract-tests/api/delivery.test.ts', /^Connection Error: Connection ended unexpectedly/], // pg, the presence session killed
  ['contract-tests/api/hardening.test.ts', /^Connection Error: Connection ended unexpectedly/], // pg, a request's connection killed mid-operation
  ['contract-tests/api/submission-package.test.ts', /^(Trying to parse invalid object|Invalid object ref)/], // pdf-lib, a corrupt PDF
];
function onConsoleLog(log: string, _type: string, entity?: { moduleId: string } | { module: { moduleId: string } }): boolean | void {
  const file = entity && ('moduleId' in entity ? entity.moduleId : entity.module.moduleId);
  if (file && PROVOKED.some(([f, text]) => file.endsWith(f) && text.test(log))) return false;
}

// The global setups build the bundle once per project (process.test.ts runs it with plain node), and
// the reference page at most once per run, when a file asks (reference.test.ts, reference-browser.test.ts).
const BUNDLE = 'contract-tests/support/global-setup-bundle.ts';
const DOCS = 'contract-tests/support/global-setup-docs.ts';

/**
 * api files that must run in a process of their own: overload.test.ts mocks a package (`vi.mock`)
 * and counts what this process parsed and compiled since it started.
 */
const OWN_PROCESS = ['contract-tests/api/overload.test.ts'];

/**
 * One engine's api files as two projects. `<engine>` shares one module graph per worker
 * (`isolate: false`): the app is imported once per worker, not once per file (every file still
 * clones its own database and starts its own harness; per-file.ts puts back the process-wide test
 * switches before each file). `<engine>-own-process` runs OWN_PROCESS isolated, as vitest does by default.
 */
function apiProjects(name: string, env: Record<string, string>, dbSetup: string, exclude: string[]) {
  // A test's timeout is there to catch a hang, not to time it (speed lives in the benchmarks): in the
  // fresh-clone CI of 2026-11-30 (31 min, the 2 cores and PostgreSQL saturated) a test that takes 2.5 s
  // alone (lender-matches-statements.test.ts) passed 30 s, as app-ops and pipeline tests had in the
  // previous stop's first run; a test cut off mid-flight also leaves work running into the next one.
  const common = { env, globalSetup: [dbSetup, BUNDLE, DOCS], testTimeout: 90_000, hookTimeout: 120_000 };
  return [
    { test: { ...common, name, include: ['contract-tests/api/**/*.test.ts'], exclude: [...exclude, ...OWN_PROCESS], isolate: false, setupFiles: ['contract-tests/support/per-file.ts'] } },
    { test: { ...common, name: `${name}-own-process`, include: OWN_PROCESS.filter((f) => !exclude.includes(f)) } },
  ];
}

/**
 * The order files are queued in. Vitest's own order (BaseSequencer) takes the projects by name
 * (pglite, postgres, spec, unit) and, within one, the files that took longest last time or, on a
 * fresh clone (CI: no results cache), the largest: the unit project's OCR files (two to three
 * minutes each) then start last, and the run ends on them with one core idle. Here the projects go
 * longest first, and within one the files known to be long (measured in CI on this 2-core machine)
 * go first; the rest keep vitest's order. A project's files stay together: an `isolate: false`
 * worker is kept for the next file only if that file is of the same project (otherwise it is
 * stopped and the next one imports the app again).
 */
const PROJECT_ORDER = ['unit', 'pglite', 'postgres', 'pglite-own-process', 'postgres-own-process', 'spec'];
const LONG_FIRST = [
  // (Each run as the only test file, 2026-11-29: the scanned set 65 CPU-s, 7 pages of OCR each
  // asserted on; statement-ocr.test.ts 30 CPU-s since its image with nothing to read is a strip,
  // 44 before, when it took 130-180 s in CI.)
  'unit:contract-tests/unit/statement-scanned-set.test.ts', // 95-155 s in CI
  'unit:contract-tests/unit/statement-ocr.test.ts',
  'unit:contract-tests/unit/statement-reading.test.ts', // 45-60 s
  'unit:contract-tests/unit/statements.test.ts',
  'pglite:contract-tests/api/attack.test.ts', // 53 s in CI (f5be0cf)
  'pglite:contract-tests/api/process.test.ts', // 43 s
  'pglite:contract-tests/api/statements.test.ts',
  'pglite:contract-tests/api/inbound.test.ts',
  'pglite:contract-tests/api/delivery-crash.test.ts',
  'pglite:contract-tests/api/mcp.test.ts',
  'pglite:contract-tests/api/samples-live.test.ts',
  'pglite:contract-tests/api/inbound-documents.test.ts',
  'postgres:contract-tests/api/reference-browser.test.ts', // 50 s
  'postgres:contract-tests/api/client-package.test.ts',
  'postgres:contract-tests/api/inbound.test.ts',
  'postgres:contract-tests/api/attack.test.ts',
  'postgres:contract-tests/api/process.test.ts',
  'postgres:contract-tests/api/mcp.test.ts',
  'postgres:contract-tests/api/statements.test.ts',
  'postgres:contract-tests/api/inbound-smtp.test.ts',
  // The last project's long files first, so that the run ends on its short ones: in vitest's order
  // (by size, on a fresh clone) lint.test.ts started last and ran alone for its whole length, the
  // other worker idle (measured 2026-11-28 on a loaded machine: the spec phase 258 s, of which the
  // last 59 s one file; these six are 30-90 s each there, the other seven under 5 s).
  'spec:contract-tests/spec/sandbox.test.ts',
  'spec:contract-tests/spec/lint.test.ts',
  'spec:contract-tests/spec/code-samples.test.ts',
  'spec:contract-tests/spec/docs.test.ts',
  'spec:contract-tests/spec/client-types.test.ts',
  'spec:contract-tests/spec/contract-diff.test.ts',
];
class LongFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    const at = new Map(base.map((f, i) => [f, i]));
    const rank = (list: string[], key: string) => (list.includes(key) ? list.indexOf(key) : list.length);
    const key = (f: TestSpecification) => `${f.project.name}:${relative(this.ctx.config.root, f.moduleId)}`;
    const out = [...base].sort(
      (a, b) => rank(PROJECT_ORDER, a.project.name) - rank(PROJECT_ORDER, b.project.name) || rank(LONG_FIRST, key(a)) - rank(LONG_FIRST, key(b)) || at.get(a)! - at.get(b)!,
    );
    return out;
  }
}

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Two files at a time (vitest's default on a 2-core machine is one): every file brings its own
    // database, ports and folders, so files never share rows or sockets.
    maxWorkers: 2,
    fileParallelism: true,
    onConsoleLog,
    sequence: { sequencer: LongFirst },
    projects: [
      {
        test: {
          name: 'spec',
          include: ['contract-tests/spec/**/*.test.ts'],
          // One module graph per worker: the contract (parsed or read from its JSON cache), yaml,
          // ajv and the sandbox's modules are loaded once per worker, not once per file. No spec file
          // mocks a module or turns a process-wide switch, and the parsed contract they share
          // (helpers.ts loadSpec) is only read; a file that edits one parses its own copy
          // (contract-diff.test.ts) or gets a clone (src/http/spec.ts loadSpec).
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'unit',
          include: ['contract-tests/unit/**/*.test.ts', ...NO_DATABASE],
          // One module graph per worker (the statement reader's warm children stay up between files);
          // a file that turns a process-wide switch puts it back itself (afterEach / finally).
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      ...apiProjects('postgres', { TEST_DB: 'pg' }, 'contract-tests/support/global-setup-pg.ts', NO_DATABASE),
      ...apiProjects('pglite', { TEST_DB: 'pglite' }, 'contract-tests/support/global-setup-pglite.ts', [...NO_DATABASE, ...ENGINE_INDEPENDENT, ...POSTGRES_ONLY]),
    ],
  },
});
