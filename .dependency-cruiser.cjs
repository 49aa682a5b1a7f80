/**
 * The import rules of src/ (issue 32), checked by `npm run -s lint:deps` in CI (.ci/run):
 *  - no circle of files (type-only imports count: a circle of types is still a knot to untie);
 *  - the layers below the features (jobs, http, db, lib, outbound, mail, storage, events) import no
 *    feature: features register what those layers run (src/background.ts, filled at start);
 *  - a feature reaches another feature's data only through that feature's service (or mapper),
 *    never its repository: `<feature>.repository.ts`, the one file of a feature that holds SQL.
 * ARCHITECTURE.md ("Import rules") says the same in words.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A circle of files: break it by moving what both sides share down, or by a registry filled at start.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'layers-know-no-feature',
      severity: 'error',
      comment: 'jobs, http, db, lib, outbound, mail, storage and events run what features register; they never import a feature.',
      from: { path: '^src/(jobs|http|db|lib|outbound|mail|storage|events)/' },
      to: { path: '^src/features/' },
    },
    {
      name: 'no-other-features-repository',
      severity: 'error',
      comment: "A feature reads and writes another feature's data through that feature's service, not its repository.",
      from: { path: '^src/features/([^/]+)/' },
      to: { path: '^src/features/([^/]+)/[^/]+\\.repository\\.ts$', pathNot: '^src/features/$1/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.d\\.m?ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.mjs', '.js', '.json'] },
  },
};
