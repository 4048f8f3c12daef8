/**
 * A small IMAP client (RFC 9051, RFC 3501) for reading mailboxes over one connection
 * (imap-connection.ts): login (AUTHENTICATE PLAIN, else LOGIN), LIST, EXAMINE (read-only: nothing
 * is marked seen), UID SEARCH (ESEARCH when offered), UID FETCH of sizes and dates, and of whole
 * messages with BODY.PEEK[]. `exclusive` keeps a folder's selection and the commands that depend
 * on it together, whoever asks (the listing, the loads of several messages).
 */
import { parseTokens, type Literal, type RawResponse, type Token } from './imap-reader.ts';
import { ImapConnection, ImapError, type ImapOptions } from './imap-connection.ts';
import { imapDate, sequenceSet } from './imap-syntax.ts';

export { ImapError, type ImapOptions } from './imap-connection.ts';

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

const FETCH_CHUNK = 500;

export class ImapClient {
  private sections: Promise<unknown> = Promise.resolve();
  private selected: { name: string; info: Selected } | null = null;

  private constructor(private readonly c: ImapConnection) {}

  /** Connects (greeting, STARTTLS when asked, capabilities). */
  static async connect(o: ImapOptions): Promise<ImapClient> {
    return new ImapClient(await ImapConnection.open(o));
  }

  /** Logs in: AUTHENTICATE PLAIN when offered (with SASL-IR in one line), else LOGIN. */
  async login(user: string, password: string): Promise<void> {
    const plain = Buffer.from(`\0${user}\0${password}`, 'utf8').toString('base64');
    try {
      if (this.c.capabilities.has('AUTH=PLAIN')) {
        if (this.c.capabilities.has('SASL-IR')) await this.c.run('login', [`AUTHENTICATE PLAIN ${plain}`]);
        else await this.c.run('login', ['AUTHENTICATE PLAIN'], [Buffer.from(`${plain}\r\n`)]);
      } else if (this.c.capabilities.has('LOGINDISABLED')) {
        throw new ImapError('the server allows no login on this connection (use TLS)', 'login');
      } else await this.c.run('login', ['LOGIN ', user, ' ', password]);
    } catch (err) {
      if (err instanceof ImapError && err.kind === 'refused')
        throw new ImapError(`the server refused the login: ${err.message.replace(/^login refused: /, '')}`, 'login');
      throw err;
    }
    await this.c.refreshCapabilities();
  }

  /** Every mailbox (LIST "" "*"). */
  async list(): Promise<Mailbox[]> {
    const { untagged } = await this.c.run('LIST', ['LIST "" "*"']);
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
    const { untagged } = await this.c.run(`EXAMINE`, ['EXAMINE ', name]);
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
    const esearch = this.c.capabilities.has('ESEARCH');
    const { untagged } = await this.c.run('SEARCH', [esearch ? 'UID SEARCH RETURN (ALL) ALL' : 'UID SEARCH ALL']);
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
      const { untagged } = await this.c.run('FETCH', [`UID FETCH ${set} (UID RFC822.SIZE INTERNALDATE)`]);
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
    const { untagged } = await this.c.run('FETCH', [`UID FETCH ${uid} (UID BODY.PEEK[])`]);
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
    if (!this.c.closed) await this.c.bounded(this.c.run('LOGOUT', ['LOGOUT']), 'no answer to LOGOUT').catch(() => {});
    this.c.close();
  }

  close(): void {
    this.c.close();
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
