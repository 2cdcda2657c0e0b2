import { SMTPServer } from 'smtp-server';

/** One mail as the test SMTP server received it, decoded enough to read. */
export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  /** The text/plain part, quoted-printable decoded. */
  text: string;
  /** The text/html part, quoted-printable decoded. */
  html: string;
  /** The first link in the text part. */
  link: string | null;
  raw: string;
}

const decodeQuotedPrintable = (s: string) =>
  Buffer.from(
    s
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
    'latin1',
  ).toString('utf8');

function decodePart(part: string): { type: string; body: string } {
  const split = part.indexOf('\r\n\r\n');
  const headers = part.slice(0, split);
  let body = part.slice(split + 4);
  const type = /content-type:\s*([^;\r\n]+)/i.exec(headers)?.[1]?.trim().toLowerCase() ?? '';
  const encoding = /content-transfer-encoding:\s*(\S+)/i.exec(headers)?.[1]?.toLowerCase() ?? '';
  if (encoding === 'quoted-printable') body = decodeQuotedPrintable(body);
  if (encoding === 'base64') body = Buffer.from(body.replace(/\s/g, ''), 'base64').toString('utf8');
  return { type, body };
}

function parse(raw: string, from: string, to: string[]): ReceivedMail {
  const headerEnd = raw.indexOf('\r\n\r\n');
  const headers = raw.slice(0, headerEnd).replace(/\r\n[ \t]+/g, ' ');
  const subject = /^subject:\s*(.*)$/im.exec(headers)?.[1]?.trim() ?? '';
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(headers)?.[1];
  let text = '';
  let html = '';
  const parts = boundary ? raw.split(`--${boundary}`).slice(1, -1) : [raw];
  for (const part of parts) {
    const { type, body } = decodePart(part.replace(/^\r\n/, ''));
    if (type === 'text/plain') text = body;
    if (type === 'text/html') html = body;
  }
  const link = /https?:\/\/\S+/.exec(text)?.[0] ?? null;
  return { from, to, subject, text, html, link, raw };
}

/**
 * A real SMTP server on 127.0.0.1 and a free port, without TLS (no STARTTLS offered, so the
 * client sends in the clear on loopback), optionally asking for a user and password.
 */
export class TestSmtp {
  readonly mails: ReceivedMail[] = [];
  readonly #waiting: Array<{ match: (m: ReceivedMail) => boolean; resolve: (m: ReceivedMail) => void }> = [];
  #server: SMTPServer | null = null;
  port = 0;
  authenticated: string[] = [];

  constructor(private readonly auth: { user: string; pass: string } | null = null) {}

  get url(): string {
    const who = this.auth
      ? `${encodeURIComponent(this.auth.user)}:${encodeURIComponent(this.auth.pass)}@`
      : '';
    return `smtp://${who}127.0.0.1:${this.port}`;
  }

  async start(): Promise<this> {
    const auth = this.auth;
    this.#server = new SMTPServer({
      disabledCommands: auth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
      authOptional: auth === null,
      allowInsecureAuth: true,
      logger: false,
      onAuth: (login, _session, callback) => {
        if (auth && login.username === auth.user && login.password === auth.pass) {
          this.authenticated.push(login.username ?? '');
          callback(null, { user: login.username });
        } else callback(new Error('invalid user or password'));
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const mail = parse(
            Buffer.concat(chunks).toString('utf8'),
            session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            session.envelope.rcptTo.map((r) => r.address),
          );
          this.mails.push(mail);
          for (const waiter of [...this.#waiting]) {
            if (waiter.match(mail)) {
              this.#waiting.splice(this.#waiting.indexOf(waiter), 1);
              waiter.resolve(mail);
            }
          }
          callback();
        });
      },
    });
    const server = this.#server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const address = server.server.address();
    this.port = typeof address === 'object' && address ? address.port : 0;
    return this;
  }

  /** The next mail to `to` (received already and not yet taken, or the next to arrive). */
  next(to: string, after = 0): Promise<ReceivedMail> {
    const match = (m: ReceivedMail) => m.to.includes(to) && this.mails.indexOf(m) >= after;
    const already = this.mails.find(match);
    if (already) return Promise.resolve(already);
    return new Promise((resolve) => this.#waiting.push({ match, resolve }));
  }

  async close(): Promise<void> {
    const server = this.#server;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
