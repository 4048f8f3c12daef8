/**
 * What the mail connector reads from a message's header itself (the body, the attachments and the
 * searchable header text are the extractors' part): subject, sender, date, and the thread.
 *
 * The thread of a message is the first Message-ID of its `References` (RFC 5322 3.6.4: a reply's
 * References are its parent's References plus the parent's Message-ID, so the first is the root
 * of the conversation), else the first of `In-Reply-To`, else its own `Message-ID`, else the
 * fallback (the message stands alone). Every message of a conversation thus names the same root
 * without reading the others, across folders (a reply in Sent joins its thread in INBOX). A
 * client that drops References and In-Reply-To starts a new thread.
 */
import { createHash } from 'node:crypto';
import { decodeHeader } from '../../../extractors/index.ts';

export interface MessageHeaders {
  subject: string;
  from: string;
  /** The Date header as epoch milliseconds; NaN when absent or unreadable. */
  date: number;
  messageId: string | null;
  inReplyTo: string[];
  references: string[];
}

/** Header bytes read at most (a header block longer than this is cut). */
const MAX_HEADER_BYTES = 256 * 1024;
/** Longest thread id kept as is; longer ones are hashed. */
const MAX_THREAD_ID = 200;

/** The header fields of a message (RFC 5322), RFC 2047 words decoded. */
export function readHeaders(message: Uint8Array): MessageHeaders {
  const head = Buffer.from(message.buffer, message.byteOffset, Math.min(message.byteLength, MAX_HEADER_BYTES));
  const text = head.toString('latin1');
  const end = /\r?\n\r?\n/.exec(text);
  const fields = new Map<string, string>();
  for (const line of (end ? text.slice(0, end.index) : text).replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!fields.has(name)) fields.set(name, line.slice(colon + 1).trim());
  }
  const raw = (name: string) => fields.get(name) ?? '';
  const decoded = (name: string) => (fields.has(name) ? decodeHeader(raw(name)).trim() : '');
  const dateText = raw('date');
  return {
    subject: decoded('subject'),
    from: decoded('from'),
    date: dateText ? Date.parse(dateText.replace(/\s*\([^)]*\)\s*$/, '')) : NaN,
    messageId: messageIds(raw('message-id'))[0] ?? null,
    inReplyTo: messageIds(raw('in-reply-to')),
    references: messageIds(raw('references')),
  };
}

/** The msg-ids of a header (`<a@b> <c@d>`); a bare value without brackets counts as one. */
function messageIds(value: string): string[] {
  const ids = [...value.matchAll(/<([^<>\s]+)>/g)].map((m) => m[1]);
  if (ids.length === 0 && /^[^\s<>]+@[^\s<>]+$/.test(value.trim())) ids.push(value.trim());
  return ids;
}

/** The thread of a message (see the module comment), bounded in length. */
export function threadIdOf(h: MessageHeaders, fallback: string): string {
  const root = h.references[0] ?? h.inReplyTo[0] ?? h.messageId ?? fallback;
  return root.length <= MAX_THREAD_ID ? root : `sha256:${createHash('sha256').update(root).digest('hex')}`;
}
