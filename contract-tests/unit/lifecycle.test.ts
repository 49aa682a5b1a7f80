import express from 'express';
import pino from 'pino';
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { ACCESS_LINE_FIELDS, requestLifecycle } from '../../src/http/lifecycle';
import { createLogger, REDACT_PATHS } from '../../src/logger';

// src/http/lifecycle.ts writes each request's access line through a child of the logger without
// redaction: that is safe only while redaction would leave the line exactly as it is.

/** A logger like the server's (createLogger: the same redaction) writing its lines into `lines`. */
function capture() {
  const lines: string[] = [];
  const logger = createLogger('info', { write: (s: string) => void lines.push(s) } as pino.DestinationStream);
  return { lines, logger };
}

describe('the access line', () => {
  it('has no field that the logger redacts (a redacted path is one field name, or ends in one)', () => {
    const redacted = new Set(REDACT_PATHS.map((p) => p.split('.').pop()!));
    expect(ACCESS_LINE_FIELDS.filter((f) => redacted.has(f))).toEqual([]);
  });

  it('is written exactly as the redacting request logger would write it', async () => {
    const { lines, logger } = capture();
    const app = express();
    app.use(requestLifecycle(logger));
    app.get('/v1/things/:id', (req, res) => {
      (req as unknown as { auth: { credentialId: string } }).auth = { credentialId: 'key_01JD1B4D6F8H0K2M4P6R8T0V2X' };
      res.status(201).json({ ok: true });
    });
    await supertest(app).get('/v1/things/abc?x=1').set('X-Request-Id', 'req-test-1').expect(201);
    await supertest(app).get('/v1/nothing').expect(404);
    expect(lines).toHaveLength(2);
    for (const written of lines) {
      const { level: _l, time: _t, msg, request_id: requestId, ...fields } = JSON.parse(written) as Record<string, unknown>;
      expect(Object.keys(fields).every((k) => (ACCESS_LINE_FIELDS as readonly string[]).includes(k))).toBe(true);
      for (const v of Object.values(fields)) expect(['string', 'number']).toContain(typeof v);
      // The same object through the redacting logger, as `req.log.info(fields, msg)`.
      const again = capture();
      again.logger.child({ request_id: requestId }).info(fields, msg as string);
      const strip = (s: string) => s.replace(/"time":\d+,/, '');
      expect(strip(written)).toBe(strip(again.lines[0]));
    }
    expect(JSON.parse(lines[0])).toMatchObject({ request_id: 'req-test-1', method: 'GET', path: '/v1/things/abc', status: 201, credential: 'key_01JD1B4D6F8H0K2M4P6R8T0V2X', outcome: 'completed', msg: 'request' });
  });
});
