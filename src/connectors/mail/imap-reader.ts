/**
 * The server side of an IMAP connection (RFC 9051, RFC 3501), as bytes become responses: lines
 * ending in CRLF, each possibly announcing a literal (`{n}`) whose n bytes follow before the line
 * goes on. A response is its text pieces with the literals between them. Memory is bounded: a
 * line longer than `maxLineBytes` is a protocol error; a literal longer than `maxLiteralBytes` is
 * read past without being kept (it is replaced by its size, `{oversize}`), so a huge message
 * costs no memory. `parseTokens` turns a response into nested values: atoms and quoted strings
 * as strings, NIL as null, lists as arrays, literals as bytes; a bracketed section (`BODY[...]`,
 * `[UIDVALIDITY 5]`) stays one atom.
 */

export interface Oversize {
  oversize: number;
}
export type Literal = Uint8Array | Oversize;
export interface RawResponse {
  /** Text pieces; `literals[i]` came after `texts[i]` (which ended with its `{n}` announcement). */
  texts: string[];
  literals: Literal[];
}
export type Token = string | null | Literal | Token[];

export interface ReaderLimits {
  maxLineBytes: number;
  maxLiteralBytes: number;
}

const LITERAL_AT_END = /\{(\d{1,12})\+?\}$/;

/** Splits a byte stream into responses; `onError` once on a protocol violation. */
export class ResponseReader {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private texts: string[] = [];
  private literals: Literal[] = [];
  /** Bytes of the literal being read; -1 while reading a line. */
  private literalLeft = -1;
  private literalKept: Buffer[] | null = null;
  private failed = false;

  constructor(
    private readonly limits: ReaderLimits,
    private readonly onResponse: (r: RawResponse) => void,
    private readonly onError: (err: Error) => void,
  ) {}

  push(chunk: Buffer): void {
    let data = chunk;
    while (data.length > 0 && !this.failed) {
      if (this.literalLeft >= 0) data = this.readLiteral(data);
      else data = this.readLine(data);
    }
  }

  /** Whether received bytes wait to be handed out (there must be none when STARTTLS begins). */
  get holdsData(): boolean {
    return this.pendingBytes > 0 || this.texts.length > 0;
  }

  private readLiteral(data: Buffer): Buffer {
    const n = Math.min(this.literalLeft, data.length);
    this.literalKept?.push(data.subarray(0, n));
    this.literalLeft -= n;
    if (this.literalLeft === 0) {
      // An oversize literal's marker was pushed when it was announced.
      if (this.literalKept) this.literals.push(new Uint8Array(Buffer.concat(this.literalKept)));
      this.literalKept = null;
      this.literalLeft = -1;
    }
    return data.subarray(n);
  }

  private readLine(data: Buffer): Buffer {
    const lf = data.indexOf(0x0a);
    if (lf < 0) {
      this.keep(data);
      return data.subarray(data.length);
    }
    this.keep(data.subarray(0, lf + 1));
    if (this.failed) return data.subarray(data.length);
    const line = Buffer.concat(this.pending)
      .toString('utf8')
      .replace(/\r?\n$/, '');
    this.pending = [];
    this.pendingBytes = 0;
    this.texts.push(line);
    const m = LITERAL_AT_END.exec(line);
    if (m) {
      const size = Number(m[1]);
      this.literalLeft = size;
      if (size > this.limits.maxLiteralBytes) {
        this.literalKept = null;
        this.literals.push({ oversize: size });
      } else this.literalKept = [];
      if (size === 0) this.readLiteral(Buffer.alloc(0));
    } else {
      const r = { texts: this.texts, literals: this.literals };
      this.texts = [];
      this.literals = [];
      this.onResponse(r);
    }
    return data.subarray(lf + 1);
  }

  private keep(part: Buffer): void {
    this.pendingBytes += part.length;
    const lineSoFar = this.texts.reduce((n, t) => n + t.length, 0) + this.pendingBytes;
    if (lineSoFar > this.limits.maxLineBytes) {
      this.failed = true;
      this.onError(new Error(`the server sent a response line longer than ${this.limits.maxLineBytes} bytes`));
      return;
    }
    this.pending.push(part);
  }
}

/** Parses a response (or the part of it from `start` characters into the first text) into tokens. */
export function parseTokens(r: RawResponse, start = 0): Token[] {
  const p = new TokenParser(r);
  p.pos = start;
  const out: Token[] = [];
  p.list(out, false);
  return out;
}

class TokenParser {
  piece = 0;
  pos = 0;
  constructor(private readonly r: RawResponse) {}

  private get text(): string {
    return this.r.texts[this.piece];
  }

  list(into: Token[], nested: boolean): void {
    for (;;) {
      while (this.text[this.pos] === ' ') this.pos++;
      if (this.pos >= this.text.length) {
        if (nested) throw new Error('unbalanced parentheses in a server response');
        return;
      }
      const ch = this.text[this.pos];
      if (ch === ')') {
        if (!nested) throw new Error('unbalanced parentheses in a server response');
        this.pos++;
        return;
      }
      into.push(this.token());
    }
  }

  private token(): Token {
    const ch = this.text[this.pos];
    if (ch === '(') {
      this.pos++;
      const inner: Token[] = [];
      this.list(inner, true);
      return inner;
    }
    if (ch === '"') return this.quoted();
    if (ch === '{') {
      const m = LITERAL_AT_END.exec(this.text.slice(this.pos));
      if (!m || this.pos + m[0].length !== this.text.length)
        throw new Error('a malformed literal in a server response');
      const literal = this.r.literals[this.piece];
      this.piece++;
      this.pos = 0;
      return literal;
    }
    return this.atom();
  }

  private quoted(): string {
    let out = '';
    const t = this.text;
    for (let i = this.pos + 1; i < t.length; i++) {
      const c = t[i];
      if (c === '\\' && i + 1 < t.length) out += t[++i];
      else if (c === '"') {
        this.pos = i + 1;
        return out;
      } else out += c;
    }
    throw new Error('an unterminated quoted string in a server response');
  }

  /** An atom; a `[...]` section inside it (spaces and parentheses included) is part of it. */
  private atom(): string | null {
    const t = this.text;
    let i = this.pos;
    let depth = 0;
    for (; i < t.length; i++) {
      const c = t[i];
      if (c === '[') depth++;
      else if (c === ']') depth = Math.max(0, depth - 1);
      else if (depth === 0 && (c === ' ' || c === '(' || c === ')')) break;
    }
    if (i === this.pos) throw new Error(`an unexpected character in a server response: ${t[i]}`);
    const word = t.slice(this.pos, i);
    this.pos = i;
    return word.toUpperCase() === 'NIL' ? null : word;
  }
}
