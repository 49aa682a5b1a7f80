import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { newId } from '../lib/ids';

const SANE = /^[A-Za-z0-9._:-]{8,128}$/;

/** Honour a sane incoming X-Request-Id, else mint one; every log line of the request carries it. */
export function requestId(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const incoming = req.get('X-Request-Id');
    const id = incoming && SANE.test(incoming) ? incoming : newId('req');
    req.requestId = id;
    res.setHeader('X-Request-Id', id);
    req.log = logger.child({ request_id: id });
    const started = process.hrtime.bigint();
    const method = req.method; // before HEAD is served as GET
    res.on('finish', () => {
      req.log.info(
        { method, path: req.path, status: res.statusCode, ms: Number(process.hrtime.bigint() - started) / 1e6, credential: req.auth?.credentialId },
        'request',
      );
    });
    next();
  };
}
