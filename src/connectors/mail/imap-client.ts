/**
 * A small IMAP client (RFC 9051, RFC 3501) for reading mailboxes: implicit TLS, STARTTLS (refused
 * when the server does not offer it) or plain, login (AUTHENTICATE PLAIN, else LOGIN), LIST,
 * EXAMINE (read-only: nothing is marked seen), UID SEARCH (ESEARCH when offered), UID FETCH of
 * sizes and dates, and of whole messages with BODY.PEEK[]. Commands run one at a time; `exclusive`
 * keeps a select and the fetches that depend on it together. Bounded: a command without an
 * answer for `timeoutMs` closes the connection; a message larger than `maxMessageBytes` is read
 * past, not kept (reader.ts). Certificates are always verified (`ca` adds a trusted certificate).
 * Credentials are never part of an error message.
 */
import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect, rootCertificates, type TLSSocket } from 'node:tls';
import { parseTokens, ResponseReader, type Literal, type RawResponse, type Token } from './imap-reader.ts';
import { imapDate, quoteOrLiteral, sequenceSet, type Arg } from './imap-syntax.ts';

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

export interface Mailbox {
  /** The name as the server spells it (modified UTF-7), for commands. */
  name: string;
  delimiter: string | null;
  flags: string[];
}

export interface Selected {
  uidValidity: number;
  exists: number;
}

export interface MessageMeta {
  size: number;
  /** INTERNALDATE as epoch milliseconds (NaN when unreadable). */
  internalDate: number;
}

interface Pending {
  label: string;
  tag: string;
  writes: Buffer[];
  untagged: RawResponse[];
  resolve(r: { untagged: RawResponse[]; text: string }): void;
  reject(err: Error): void;
}

const MAX_LINE_BYTES = 32 * 1024 * 1024;
const FETCH_CHUNK = 500;

export class ImapClient {
  private socket!: Socket | TLSSocket;
  private reader!: ResponseReader;
  private current: Pending | null = null;
  private greeting: ((r: RawResponse) => void) | null = null;
  private broken: Error | null = null;
  private tags = 0;
  private onBroken: ((err: Error) => void) | null = null;
  private commands: Promise<unknown> = Promise.resolve();
  private sections: Promise<unknown> = Promise.resolve();
  private capabilities = new Set<string>();
  private selected: { name: string; info: Selected } | null = null;

  private constructor(private readonly o: ImapOptions) {}

  /** Connects, reads the greeting, upgrades with STARTTLS when asked, and reads the capabilities. */
  static async connect(o: ImapOptions): Promise<ImapClient> {
    const c = new ImapClient(o);
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
    const onAbort = () => c.fail(new ImapError('the run was stopped', 'connection'));
    o.signal.addEventListener('abort', onAbort, { once: true });
    socket.once('close', () => o.signal.removeEventListener('abort', onAbort));
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
    return c;
  }

  /** Logs in: AUTHENTICATE PLAIN when offered (with SASL-IR in one line), else LOGIN. */
  async login(user: string, password: string): Promise<void> {
    const plain = Buffer.from(`\0${user}\0${password}`, 'utf8').toString('base64');
    try {
      if (this.capabilities.has('AUTH=PLAIN')) {
        if (this.capabilities.has('SASL-IR')) await this.run('login', [`AUTHENTICATE PLAIN ${plain}`]);
        else await this.run('login', ['AUTHENTICATE PLAIN'], [Buffer.from(`${plain}\r\n`)]);
      } else if (this.capabilities.has('LOGINDISABLED')) {
        throw new ImapError('the server allows no login on this connection (use TLS)', 'login');
      } else await this.run('login', ['LOGIN ', user, ' ', password]);
    } catch (err) {
      if (err instanceof ImapError && err.kind === 'refused')
        throw new ImapError(`the server refused the login: ${err.message.replace(/^login refused: /, '')}`, 'login');
      throw err;
    }
    await this.refreshCapabilities();
  }

  /** Every mailbox (LIST "" "*"). */
  async list(): Promise<Mailbox[]> {
    const { untagged } = await this.run('LIST', ['LIST "" "*"']);
    const out: Mailbox[] = [];
    for (const r of untagged) {
      if (!/^\* LIST /i.test(r.texts[0])) continue;
      const [, , flags, delimiter, name] = parseTokens(r);
      const text = name instanceof Uint8Array ? Buffer.from(name).toString('utf8') : name;
      if (typeof text !== 'string' || !Array.isArray(flags)) continue;
      out.push({ name: text, delimiter: typeof delimiter === 'string' ? delimiter : null, flags: flags.map(String) });
    }
    return out;
  }

  /** Runs `fn` with `mailbox` selected (read-only), after every earlier section ended. */
  exclusive<T>(mailbox: string, fn: (selected: Selected) => Promise<T>): Promise<T> {
    const next = this.sections.then(async () => fn(await this.examine(mailbox)));
    this.sections = next.catch(() => {});
    return next;
  }

  private async examine(name: string): Promise<Selected> {
    if (this.selected?.name === name) return this.selected.info;
    this.selected = null;
    const { untagged } = await this.run(`EXAMINE`, ['EXAMINE ', name]);
    let uidValidity = NaN;
    let exists = 0;
    for (const r of untagged) {
      const t = r.texts[0];
      const v = /^\* OK \[UIDVALIDITY (\d+)\]/i.exec(t);
      if (v) uidValidity = Number(v[1]);
      const e = /^\* (\d+) EXISTS/i.exec(t);
      if (e) exists = Number(e[1]);
    }
    if (!Number.isFinite(uidValidity)) throw new ImapError(`the server sent no UIDVALIDITY for ${name}`, 'refused');
    const info = { uidValidity, exists };
    this.selected = { name, info };
    return info;
  }

  /** The UIDs of every message of the selected mailbox, ascending. */
  async uids(): Promise<number[]> {
    const esearch = this.capabilities.has('ESEARCH');
    const { untagged } = await this.run('SEARCH', [esearch ? 'UID SEARCH RETURN (ALL) ALL' : 'UID SEARCH ALL']);
    const out: number[] = [];
    for (const r of untagged) {
      const t = r.texts[0];
      const plain = /^\* SEARCH((?: \d+)*)\s*$/i.exec(t);
      if (plain) for (const n of plain[1].trim().split(' ')) if (n) out.push(Number(n));
      const ext = /^\* ESEARCH .*\bALL ([\d:,]+)/i.exec(t);
      if (ext)
        for (const range of ext[1].split(',')) {
          const [a, b = a] = range.split(':').map(Number);
          for (let u = Math.min(a, b); u <= Math.max(a, b); u++) out.push(u);
        }
    }
    return out.sort((a, b) => a - b);
  }

  /** Size and INTERNALDATE of messages of the selected mailbox, by UID (missing: expunged). */
  async meta(uids: readonly number[]): Promise<Map<number, MessageMeta>> {
    const out = new Map<number, MessageMeta>();
    for (let i = 0; i < uids.length; i += FETCH_CHUNK) {
      const set = sequenceSet(uids.slice(i, i + FETCH_CHUNK));
      const { untagged } = await this.run('FETCH', [`UID FETCH ${set} (UID RFC822.SIZE INTERNALDATE)`]);
      for (const f of fetched(untagged)) {
        const uid = Number(f.get('UID'));
        const size = Number(f.get('RFC822.SIZE'));
        if (Number.isInteger(uid) && Number.isFinite(size))
          out.set(uid, { size, internalDate: imapDate(String(f.get('INTERNALDATE') ?? '')) });
      }
    }
    return out;
  }

  /** The whole message (never marked seen): bytes, `{oversize}` past the size limit, null when gone. */
  async message(uid: number): Promise<Literal | null> {
    const { untagged } = await this.run('FETCH', [`UID FETCH ${uid} (UID BODY.PEEK[])`]);
    for (const f of fetched(untagged)) {
      if (Number(f.get('UID')) !== uid) continue;
      const body = f.get('BODY[]');
      if (body instanceof Uint8Array || (body !== null && typeof body === 'object' && 'oversize' in body)) return body;
      if (typeof body === 'string') return Buffer.from(body, 'utf8');
    }
    return null;
  }

  /** After every section began so far has ended: LOGOUT (briefly waited for), then the connection is closed. */
  async logout(): Promise<void> {
    await this.sections;
    if (!this.broken) await this.bounded(this.run('LOGOUT', ['LOGOUT']), 'no answer to LOGOUT').catch(() => {});
    this.close();
  }

  close(): void {
    this.fail(new ImapError('the connection was closed', 'connection'));
  }

  private async refreshCapabilities(): Promise<void> {
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
  private run(label: string, parts: Arg[], more: Buffer[] = []): Promise<{ untagged: RawResponse[]; text: string }> {
    const next = this.commands.then(
      () =>
        new Promise<{ untagged: RawResponse[]; text: string }>((resolve, reject) => {
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

  private bounded<T>(p: Promise<T>, message: string): Promise<T> {
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

/** The FETCH responses among `untagged`, each as its item names (upper case) and values. */
function fetched(untagged: RawResponse[]): Map<string, Token>[] {
  const out: Map<string, Token>[] = [];
  for (const r of untagged) {
    if (!/^\* \d+ FETCH /i.test(r.texts[0])) continue;
    const items = parseTokens(r)[3];
    if (!Array.isArray(items)) continue;
    const m = new Map<string, Token>();
    for (let i = 0; i + 1 < items.length; i += 2) m.set(String(items[i]).toUpperCase(), items[i + 1]);
    out.push(m);
  }
  return out;
}
