// Writes the scanned set (contract-tests/support/scans.ts: dev-corpus statements rendered at 150, 200
// and 300 dpi, some turned a few degrees and noisy, as image-only PDFs) and its truth.json into a folder,
// deterministically. `npm run bench:statements` scores it; this is to look at the files.
//
//   npx tsx scripts/make-scans.ts /tmp/scans
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeScanSet } from '../contract-tests/support/scans';

const dir = process.argv[2] ?? '.scans';
mkdirSync(dir, { recursive: true });
const { files, truth } = await makeScanSet();
for (const [name, bytes] of files) writeFileSync(join(dir, name), bytes);
writeFileSync(join(dir, 'truth.json'), JSON.stringify({ batch: 'scans', generator: 'contract-tests/support/scans.ts', ...truth }, null, 2));
console.log(`${files.size} scans in ${dir}`);
