/**
 * IMAP syntax pieces (RFC 9051, RFC 3501): command arguments as quoted strings or literals,
 * UID sequence sets, INTERNALDATE, and mailbox names in modified UTF-7 (RFC 3501 5.1.3).
 */

/** Command parts: even indexes raw command text, odd indexes string arguments (quoted or literal). */
export type Arg = string;

const QUOTABLE = /^[\x20-\x7e]{0,1000}$/;

/**
 * The writes of a command: `tag parts...CRLF`. An argument of printable ASCII is quoted; any other
 * becomes a literal: inline with LITERAL+ (`{n+}`), else the command is split after each `{n}`
 * and the next write waits for the server's continuation.
 */
export function quoteOrLiteral(tag: string, parts: readonly Arg[], literalPlus: boolean): Buffer[] {
  const writes: Buffer[] = [];
  let chunk: Buffer[] = [Buffer.from(`${tag} `)];
  parts.forEach((part, i) => {
    if (i % 2 === 0) chunk.push(Buffer.from(part, 'utf8'));
    else if (QUOTABLE.test(part)) chunk.push(Buffer.from(`"${part.replace(/[\\"]/g, '\\$&')}"`));
    else {
      const bytes = Buffer.from(part, 'utf8');
      chunk.push(Buffer.from(literalPlus ? `{${bytes.length}+}\r\n` : `{${bytes.length}}\r\n`));
      if (!literalPlus) {
        writes.push(Buffer.concat(chunk));
        chunk = [];
      }
      chunk.push(bytes);
    }
  });
  chunk.push(Buffer.from('\r\n'));
  writes.push(Buffer.concat(chunk));
  return writes;
}

/** Ascending UIDs as a sequence set (`1:4,7,9:12`). */
export function sequenceSet(uids: readonly number[]): string {
  const out: string[] = [];
  for (let i = 0; i < uids.length;) {
    let j = i;
    while (j + 1 < uids.length && uids[j + 1] === uids[j] + 1) j++;
    out.push(i === j ? String(uids[i]) : `${uids[i]}:${uids[j]}`);
    i = j + 1;
  }
  return out.join(',');
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** An INTERNALDATE (`17-Jul-1996 02:44:25 -0700`) as epoch milliseconds; NaN when malformed. */
export function imapDate(s: string): number {
  const m = /^\s?(\d{1,2})-([A-Za-z]{3})-(\d{4}) (\d{2}):(\d{2}):(\d{2}) ([+-])(\d{2})(\d{2})$/.exec(s);
  if (!m) return NaN;
  const month = MONTHS.indexOf(m[2].toLowerCase());
  if (month < 0) return NaN;
  const utc = Date.UTC(Number(m[3]), month, Number(m[1]), Number(m[4]), Number(m[5]), Number(m[6]));
  const offset = (Number(m[8]) * 60 + Number(m[9])) * 60_000;
  return m[7] === '+' ? utc - offset : utc + offset;
}

/** A mailbox name in modified UTF-7 as text (`Entw&APw-rfe` -> `Entwürfe`); malformed runs stay as they are. */
export function decodeMailboxName(name: string): string {
  return name.replace(/&([A-Za-z0-9+,]*)-/g, (whole, b64: string) => {
    if (b64 === '') return '&';
    const bytes = Buffer.from(b64.replace(/,/g, '/'), 'base64');
    if (bytes.length % 2 !== 0) return whole;
    let out = '';
    for (let i = 0; i + 1 < bytes.length; i += 2) out += String.fromCharCode((bytes[i] << 8) | bytes[i + 1]);
    return out;
  });
}
