import type { OcrPageStats } from './extract';

// What reading a statement ends with: its figures, or a failure with a stable code.
export interface StatementFigures {
  period_start: string;
  period_end: string;
  bank_name: string | null;
  beginning_balance: number;
  deposits_total: number;
  deposit_count: number;
  true_revenue: number;
  average_daily_balance: number;
  ending_balance: number;
  negative_days: number;
  nsf_count: number;
  mca_count: number;
  mca_withhold_percent: number;
  has_recovery_activity: boolean;
}

export type FailureCode = 'empty' | 'not_pdf' | 'too_large' | 'encrypted' | 'unreadable' | 'no_text_layer' | 'too_many_pages' | 'timeout' | 'too_complex' | 'resource_limit' | 'not_a_statement' | 'no_transactions' | 'does_not_reconcile' | 'uncertain_categories' | 'unreadable_scan' | 'several_accounts';
export type StatementResult =
  /** `ocr`: the statement was a scan, read by OCR (per-page statistics, for benchmarks and tests). */
  | { ok: true; figures: StatementFigures; pages: number; ocr?: OcrPageStats[] }
  | { ok: false; code: FailureCode; reason: string; pages: number | null; ocr?: OcrPageStats[] };
