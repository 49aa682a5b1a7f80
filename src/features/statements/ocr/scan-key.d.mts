// Types of ./scan-key.mjs (the reader process's name for a scan's kept pages).
export function openNamed<P extends { numPages: number }>(open: (b: Uint8Array) => Promise<P>, pdfBytes: Uint8Array, bytes: Uint8Array, kind: string, maxPixels: number): Promise<{ pdf: P; key: string }>;
