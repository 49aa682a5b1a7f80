import { EventEmitter } from 'node:events';
import { Writable } from 'node:stream';
import type { NextFunction, Request, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { requestLifecycle } from '../../src/http/lifecycle';
import { createLogger } from '../../src/logger';

// The access line (one per request) is written past the logger's redaction, for speed (issue 31):
// allowed only because its fields are fixed and none of them is one redaction would censor. This
// holds the line to that: it must read exactly as the redacting logger would have written it.

function capture() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      for (const l of String(chunk).split('\n')) if (l) lines.push(JSON.parse(l) as Record<string, unknown>);
      cb();
    },
  });
  return { lines, logger: createLogger('info', sink as never) };
}

function serve(headers: Record<string, string>, path: string, auth?: { credentialId: string }) {
  const { lines, logger } = capture();
  const res = Object.assign(new EventEmitter(), { locals: {} as Record<string, unknown>, statusCode: 200, writableFinished: true, setHeader: () => undefined });
  const req = {
    method: 'GET', path, get: (name: string) => headers[name.toLowerCase()], auth,
  } as unknown as Request;
  requestLifecycle(logger)(req, res as unknown as Response, (() => undefined) as NextFunction);
  res.emit('close');
  return { lines, logger, req };
}

describe('the access line', () => {
  it('has its fixed fields only, and reads as the redacting logger would write it', () => {
    const { lines } = serve({ 'x-request-id': 'req_test_0123456789' }, '/p/secret-magic-token/x', { credentialId: 'key_01TEST' });
    expect(lines).toHaveLength(1);
    const line = lines[0];
    expect(Object.keys(line).sort()).toEqual(['credential', 'level', 'method', 'ms', 'msg', 'outcome', 'path', 'request_id', 'status', 'time'].sort());
    expect(line).toMatchObject({ request_id: 'req_test_0123456789', method: 'GET', path: '/p/:token/x', status: 200, credential: 'key_01TEST', outcome: 'completed', msg: 'request' });

    // The same object through the redacting logger: nothing is censored, so nothing was skipped.
    const { lines: redacted, logger } = capture();
    const { level: _l, time: _t, msg, ...fields } = line;
    logger.info(fields, msg as string);
    const { time: _rt, ...again } = redacted[0];
    const { time: _ot, ...original } = line;
    expect(again).toEqual(original);
  });
});
