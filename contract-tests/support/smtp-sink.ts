import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server on loopback that keeps what it is sent, parsed with mailparser: the lenders'
 * side of a submission. No AUTH, no TLS (mail.test.ts covers those). `refuse` makes it answer 451
 * (try later) after the whole message was received.
 */
export interface SmtpSink {
  port: number;
  url: string;
  inbox: { mail: ParsedMail; rcpt: string[] }[];
  refuse: boolean;
  close(): Promise<void>;
}

export async function startSmtpSink(opts: { size?: number } = {}): Promise<SmtpSink> {
  const sink: SmtpSink = { port: 0, url: '', inbox: [], refuse: false, close: async () => undefined };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    size: opts.size ?? 30 * 1024 * 1024,
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (sink.refuse) return cb(Object.assign(new Error('Mailbox busy, try later'), { responseCode: 451 }));
        void simpleParser(Buffer.concat(chunks)).then((mail) => {
          sink.inbox.push({ mail, rcpt: session.envelope.rcptTo.map((r) => r.address) });
          cb();
        }, cb);
      });
    },
  });
  server.on('error', () => undefined);
  sink.port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.server.address() as AddressInfo).port)));
  sink.url = `smtp://127.0.0.1:${sink.port}`;
  sink.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return sink;
}
