// Request bodies as bytes: JSON text written verbatim where JSON.stringify cannot (RawJson, RawBytes).

/** A number written verbatim into the JSON text (`1e309` parses to Infinity, `-0`, `9007199254740993`). */
export class RawJson {
  constructor(readonly text: string, readonly label = text) {}
}
/** Bytes spliced verbatim into the JSON text (invalid UTF-8 inside a string). */
export class RawBytes {
  constructor(readonly bytes: Buffer, readonly label: string) {}
}

/** JSON text of a value that may hold RawJson / RawBytes pieces. Lone surrogates become `\udXXX` escapes. */
export function jsonBytes(value: unknown): Buffer {
  const out: (string | Buffer)[] = [];
  const write = (v: unknown): void => {
    if (v instanceof RawJson) out.push(v.text);
    else if (v instanceof RawBytes) out.push(v.bytes);
    else if (v === null || typeof v !== 'object') out.push(JSON.stringify(v) ?? 'null');
    else if (Array.isArray(v)) {
      out.push('[');
      v.forEach((x, i) => {
        if (i) out.push(',');
        write(x);
      });
      out.push(']');
    } else {
      out.push('{');
      let first = true;
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
        if (x === undefined) continue;
        if (!first) out.push(',');
        first = false;
        out.push(JSON.stringify(k), ':');
        write(x);
      }
      out.push('}');
    }
  };
  write(value);
  return Buffer.concat(out.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : p)));
}

/** Short printable description of a body for failure reports. */
export function describeBody(body: Buffer | undefined, max = 400): string {
  if (!body) return '(no body)';
  const text = body.toString('latin1');
  // Printable JSON stays readable; control bytes and non-ASCII bytes are shown escaped.
  const shown = text.replace(/[^\x20-\x7e]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  return shown.length > max ? `${shown.slice(0, max)}... (${body.length} bytes)` : shown;
}
