import { SPECS, statementFixture, type StatementFixture } from './statement-fixtures';

/** The statement the browser test uploads: the first fixture (a clean single-column month). */
export function browserStatement(): Promise<StatementFixture> {
  return statementFixture(SPECS[0]);
}
