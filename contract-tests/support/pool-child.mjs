// A warm child for the IsolatedPool tests (src/lib/isolated.ts): each job `{ holdMb }` makes the
// process keep that many more MB resident (touched, so they count in its RSS) and answers its pid.
import { deserialize, serialize } from 'node:v8';

const held = [];
let buf = Buffer.alloc(0);
process.stdin.on('data', (c) => {
  buf = Buffer.concat([buf, c]);
  while (buf.length >= 4 && buf.length >= 4 + buf.readUInt32LE(0)) {
    const n = buf.readUInt32LE(0);
    const input = deserialize(buf.subarray(4, 4 + n));
    buf = buf.subarray(4 + n);
    if (input.holdMb) held.push(Buffer.alloc(input.holdMb * 1024 * 1024, 1));
    const out = serialize({ pid: process.pid });
    const head = Buffer.alloc(4);
    head.writeUInt32LE(out.length, 0);
    process.stdout.write(Buffer.concat([head, out]));
  }
});
process.stdin.on('end', () => process.exit(0));
