// Types of the pure helpers of ./ocr.mjs that tests call (the module is plain JavaScript: it runs in
// the reader process without a TypeScript loader).
export interface AmountParts {
  cents: number;
  /** Signs before the digits ("-", "(", "+"; a dollar sign is not one). */
  lead: string;
  /** Signs after the digits (")", "-"). */
  trail: string;
}
export function ocrText(s: string): string;
export function strayMarks(s: string): string;
export function strayDash(s: string): string;
/** A ruled line's remnants (blots wholly on the rows of a rule at least 1.5 in long) erased from `ink` in place. */
export function ruleRemnants(ink: Uint8Array, w: number, h: number, ruleFrom: Int32Array, ruleTo: Int32Array, dpi: number): void;
export function inkBand(gray: Uint8Array, W: number, x0: number, x1: number, y0: number, y1: number): [number, number] | null;
export function amountParts(s: string): AmountParts | null;
export function settleAmount(first: string, why: 'mark' | 'stray' | 'low', marks: { lead: boolean; trail: boolean } | undefined, more: () => Promise<string>): Promise<string | null>;
export const knobs: Record<string, unknown>;
export function ocrPdf(pdf: unknown, OPS: unknown, o: { maxPages: number; layout?: 'auto' | 'block'; key?: string | null }): Promise<unknown>;
export function forgetPrepared(): void;
export function imageSize(bytes: Uint8Array): { type: 'png' | 'jpeg'; w: number; h: number } | null;
export function imagePdf(bytes: Uint8Array, type: 'png' | 'jpeg'): Promise<Uint8Array>;
export function langPath(): string;
export function fixDates(items: Array<{ x: number; s: string }>): void;
export function amountAlternatives(first: string, reads: string[]): string[];
export function rotate(gray: Uint8Array, w: number, h: number, deg: number): Uint8Array;
/** A faint sign word before an amount against the ink there: kept ('sign'), in doubt ('doubt'), or neither (null). */
export function signBefore(before: 'dash' | 'other' | 'none', signWord: { text?: string; confidence: number } | null): 'sign' | 'doubt' | null;
/** An amount whose minus is in doubt: unreadable, then as read and with a minus. */
export function signAlternatives(core: string): string[];
/** A low-confidence word whose box holds far less ink than its characters would: specks read as letters. */
export function inkless(inkPixels: number, chars: number, lh: number, confidence: number): boolean;
/** Strips of ink no recognized box covers (cells of g pixels; regions whose columns overlap are one strip). */
export function uncoveredStrips(ink: Uint8Array, W: number, H: number, boxes: Array<{ x0: number; y0: number; x1: number; y1: number }>, g: number, minCells?: number): Array<{ x0: number; y0: number; x1: number; y1: number; parts: Array<{ x0: number; y0: number; x1: number; y1: number; cells: number }> }>;
export function keepRecovered(text: string, confidence: number): boolean;
/** The lowest row, within word boxes (x1, y1 inclusive), holding a third of the fullest row's ink; null without ink. */
export function inkBaseline(ink: Uint8Array, w: number, boxes: Array<{ x0: number; y0: number; x1: number; y1: number }>): number | null;
/** Pixels to raise a line whose recognized baseline is at `at`: to its words' ink when that is over a fifth of `lineH` higher, else 0. */
export function baselineLift(ink: Uint8Array, w: number, boxes: Array<{ x0: number; y0: number; x1: number; y1: number }>, at: number, lineH: number): number;
