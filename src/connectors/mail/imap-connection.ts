/**
 * One IMAP connection (RFC 9051, RFC 3501): implicit TLS, STARTTLS (refused when the server does
 * not offer it) or plain; the greeting; commands run one at a time, each answered with its untagged
 * responses and completion, with arguments sent quoted or as literals and continuations answered.
 * Bounded: a command without an answer for `timeoutMs` closes the connection, and a literal larger
 * than `maxMessageBytes` is read past, not kept (imap-reader.ts). Certificates are always verified
 * (`ca` adds a trusted certificate). Command arguments (credentials) never enter an error message.
 */
import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect, rootCertificates, type TLSSocket } from 'node:tls';
import { ResponseReader, type RawResponse } from './imap-reader.ts';
import { quoteOrLiteral, type Arg } from './imap-syntax.ts';

export interface ImapOptions {
  host: string;
  port: number;
  security: 'tls' | 'starttls' | 'plain';
  /** PEM certificate(s) trusted besides the system's (a private CA, a self-signed server). */
  ca?: string;
  timeoutMs: number;
  maxMessageBytes: number;
  signal: AbortSignal;
}

/** An IMAP failure; `kind` tells a refused login and a refused command from a broken connection. */
export class ImapError extends Error {
  constructor(
    message: string,
    readonly kind: 'connection' | 'login' | 'refused',
  ) {
    super(message);
    this.name = 'ImapError';
  }
}

export interface Completion {
  untagged: RawResponse[];
  text: string;
}

interface Pending {
  label: string;
  tag: string;
  writes: Buffer[];
  untagged: RawResponse[];
  resolve(r: Completion): void;
  reject(err: Error): void;
}

const MAX_LINE_BYTES = 32 * 1024 * 1024;

export class ImapConnection {
  private socket!: Socket | TLSSocket;
  private reader!: ResponseReader;
  private current: Pending | null = null;
  private greeting: ((r: RawResponse) => void) | null = null;
  private broken: Error | null = null;
  private tags = 0;
  private onBroken: ((err: Error) => void) | null = null;
  private commands: Promise<unknown> = Promise.resolve();
  /** The server's capabilities (upper case), as last asked. */
  capabilities = new Set<string>();

  private constructor(private readonly o: ImapOptions) {}

  /** Connects, reads the greeting, upgrades with STARTTLS when asked, and reads the capabilities. */
  static async open(o: ImapOptions): Promise<ImapConnection> {
    const c = new ImapConnection(o);
    o.signal.throwIfAborted();
    const where = `${o.host}:${o.port}`;
    const servername = isIP(o.host) ? undefined : o.host;
    const ca = o.ca ? [...rootCertificates, o.ca] : undefined;
    const greeted = new Promise<RawResponse>((resolve) => (c.greeting = resolve));
    const socket =
      o.security === 'tls'
        ? tlsConnect({ host: o.host, port: o.port, servername, ca, ALPNProtocols: ['imap'] })
        : netConnect({ host: o.host, port: o.port });
    c.attach(socket);
    // Stopping a run cuts only the opening short; later, the run stops asking and the commands in flight finish.
    const onAbort = () => c.fail(new ImapError('the run was stopped', 'connection'));
    o.signal.addEventListener('abort', onAbort, { once: true });
    try {
      const first = await c.bounded(greeted, `no greeting from ${where}`);
      if (/^\* BYE/i.test(first.texts[0]))
        throw new ImapError(`${where} refused the connection: ${first.texts[0]}`, 'connection');
      await c.refreshCapabilities();
      if (o.security === 'starttls') {
        if (!c.capabilities.has('STARTTLS')) throw new ImapError(`${where} does not offer STARTTLS`, 'connection');
        await c.run('STARTTLS', ['STARTTLS']);
        if (c.reader.holdsData) throw new ImapError(`${where} sent data before the TLS handshake`, 'connection');
        const plain = c.socket;
        plain.removeAllListeners('data');
        const secured = tlsConnect({ socket: plain, servername, ca });
        c.attach(secured);
        await c.bounded(
          new Promise<void>((resolve) => secured.once('secureConnect', () => resolve())),
          `no TLS handshake with ${where}`,
        );
        await c.refreshCapabilities();
      }
    } catch (err) {
      c.close();
      throw err;
    } finally {
      o.signal.removeEventListener('abort', onAbort);
    }
    return c;
  }

  /** Whether the connection failed (or was closed). */
  get closed(): boolean {
    return this.broken !== null;
  }

  close(): void {
    this.fail(new ImapError('the connection was closed', 'connection'));
  }

  async refreshCapabilities(): Promise<void> {
    const { untagged } = await this.run('CAPABILITY', ['CAPABILITY']);
    this.capabilities = new Set();
    for (const r of untagged) {
      const m = /^\* CAPABILITY (.*)$/i.exec(r.texts[0]);
      if (m) for (const c of m[1].split(' ')) if (c) this.capabilities.add(c.toUpperCase());
    }
  }

  private attach(socket: Socket | TLSSocket): void {
    this.socket = socket;
    this.reader = new ResponseReader(
      { maxLineBytes: MAX_LINE_BYTES, maxLiteralBytes: this.o.maxMessageBytes },
      (r) => this.onResponse(r),
      (err) => this.fail(new ImapError(err.message, 'connection')),
    );
    socket.on('data', (chunk: Buffer) => this.reader.push(chunk));
    socket.on('timeout', () =>
      this.fail(
        new ImapError(`no answer from the server within ${this.o.timeoutMs} ms (${this.current?.label})`, 'connection'),
      ),
    );
    socket.on('error', (err) =>
      this.fail(new ImapError(`${this.o.host}:${this.o.port}: ${err.message}`, 'connection')),
    );
    socket.on('close', () => this.fail(new ImapError('the server closed the connection', 'connection')));
  }

  private onResponse(r: RawResponse): void {
    const first = r.texts[0];
    if (this.greeting) {
      const g = this.greeting;
      this.greeting = null;
      g(r);
      return;
    }
    const cur = this.current;
    if (!cur) return;
    if (first.startsWith('+')) {
      const next = cur.writes.shift();
      // A continuation nothing was prepared for (a failed AUTHENTICATE): cancel the exchange.
      this.socket.write(next ?? Buffer.from('*\r\n'));
    } else if (first.startsWith('* ')) cur.untagged.push(r);
    else if (first.startsWith(`${cur.tag} `)) {
      this.current = null;
      this.socket.setTimeout(0);
      const m = /^\S+ (OK|NO|BAD)\b ?(.*)$/i.exec(first);
      const status = m?.[1].toUpperCase();
      if (status === 'OK') cur.resolve({ untagged: cur.untagged, text: m![2] });
      else cur.reject(new ImapError(`${cur.label} refused: ${(m?.[2] ?? first).slice(0, 500)}`, 'refused'));
    }
  }

  /** Runs one command: `parts` are its text, where odd parts are strings sent quoted or as literals. */
  run(label: string, parts: Arg[], more: Buffer[] = []): Promise<Completion> {
    const next = this.commands.then(
      () =>
        new Promise<Completion>((resolve, reject) => {
          if (this.broken) return reject(this.broken);
          const tag = `A${++this.tags}`;
          const writes = quoteOrLiteral(tag, parts, this.capabilities.has('LITERAL+'));
          writes.push(...more);
          this.current = { label, tag, writes, untagged: [], resolve, reject };
          this.socket.setTimeout(this.o.timeoutMs);
          this.socket.write(writes.shift()!);
        }),
    );
    this.commands = next.catch(() => {});
    return next;
  }

  bounded<T>(p: Promise<T>, message: string): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const broken = new Promise<never>((_, reject) => {
      if (this.broken) return reject(this.broken);
      timer = setTimeout(() => {
        const err = new ImapError(`${message} within ${this.o.timeoutMs} ms`, 'connection');
        this.fail(err);
        reject(err);
      }, this.o.timeoutMs);
      this.onBroken = reject;
    });
    return Promise.race([p, broken]).finally(() => {
      clearTimeout(timer);
      this.onBroken = null;
    });
  }

  private fail(err: Error): void {
    if (this.broken) return;
    this.broken = err;
    this.current?.reject(err);
    this.current = null;
    this.onBroken?.(err);
    this.socket?.destroy();
  }
}
