// Scores statement analysis on a corpus directory with a truth.json (see
// contract-tests/support/statement-score.ts): statements parsed and fully right, accuracy per
// figure, every statement marked parsed with a wrong figure (listed loudly), time per statement and
// per page. Each PDF goes through analyzeStatementPdf, the path the API's statement jobs use.
//
//   npx tsx scripts/score-statements.ts contract-tests/fixtures/statements
import { analyzeStatementPdf } from '../src/features/statements/analyze';
import { formatScore, scoreCorpus } from '../contract-tests/support/statement-score';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: tsx scripts/score-statements.ts <dir with truth.json>');
  process.exit(2);
}
const score = await scoreCorpus(dir, (b) => analyzeStatementPdf(b));
console.log(formatScore(dir, score));
process.exitCode = score.parsedWrong.length ? 1 : 0;
