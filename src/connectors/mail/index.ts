/**
 * The mail connector (`mailsuite`): reads the folders of one IMAP mailbox (imap-client.ts) and makes
 * each message an `email` document: the whole message goes through the extractors as
 * `message/rfc822` (headers, text and HTML parts, attachments), the subject is the title, the
 * sender the author, the Date header (else the arrival time) `last_modified`, the thread (the
 * root Message-ID, message.ts) the `thread_id` property that groups `same_thread_docs`; the
 * owner (plus `shared_with`) may see it.
 *
 * Incremental by UIDVALIDITY and UID: a message's key is `folder/UIDVALIDITY/UID`, which IMAP
 * never reuses for other content, so a listed key already pushed costs nothing; a run lists the
 * UIDs of each folder (UID SEARCH) and fetches only new messages. Expunged messages are not
 * listed and their documents are deleted at the end of the run; a changed UIDVALIDITY changes
 * every key of the folder: a full resync (the old keys deleted, the folder read again).
 * A folder that earlier runs read and the settings still name but that is gone or cannot be
 * selected fails its known messages (kept, retried next run) and makes the listing incomplete.
 * An unreachable server or a refused login fails the run (nothing deleted).
 */
import { globMatcher } from '../glob.ts';
import { SkippedItem, type ConnectorModule, type RunContext, type SourceDocument, type SourceItem } from '../types.ts';
import { ImapClient, ImapError, type Mailbox, type MessageMeta } from './imap-client.ts';
import { decodeMailboxName } from './imap-syntax.ts';
import { readHeaders, threadIdOf } from './message.ts';
import { MailCredentials, MailSettings } from './settings.ts';

/** Messages never change under their key; a new version string re-reads every message once. */
const VERSION = 'm1';
const CHUNK = 500;
const KEY = /^(.*)\/(\d+)\/(\d+)$/s;

type Run = RunContext<MailSettings, MailCredentials>;

interface Folder {
  mailbox: Mailbox;
  /** Levels joined with `/`, decoded: what globs match and breadcrumbs show. */
  path: string;
}

const keyOf = (folder: string, uidValidity: number, uid: number) => `${folder}/${uidValidity}/${uid}`;

/** A folder's path: its levels (split at the server's delimiter) decoded from modified UTF-7. */
function folderPath(m: Mailbox): string {
  if (m.name.toUpperCase() === 'INBOX') return 'INBOX';
  const levels = m.delimiter ? m.name.split(m.delimiter) : [m.name];
  return levels.map((l, i) => (i === 0 && l.toUpperCase() === 'INBOX' ? 'INBOX' : decodeMailboxName(l))).join('/');
}

async function* items(run: Run): AsyncGenerator<SourceItem> {
  const s = run.settings;
  if (!run.credentials) throw new Error('the mail connector needs credentials: {"username", "password"}');
  const include = globMatcher(s.folders.map((p) => (p.toUpperCase() === 'INBOX' ? 'INBOX' : p)));
  const exclude = globMatcher(s.exclude_folders);
  const wanted = (path: string) => include.matches(path) && !exclude.matches(path);
  const client = await ImapClient.connect({
    host: s.host,
    port: s.port ?? (s.security === 'tls' ? 993 : 143),
    security: s.security,
    ca: s.ca_certificate,
    timeoutMs: s.timeout_ms,
    maxMessageBytes: maxBytes(run),
    signal: run.signal,
  });
  try {
    await client.login(run.credentials.username, run.credentials.password);
    const all = (await client.list()).filter((m) => !m.flags.some((f) => /^\\(noselect|nonexistent)$/i.test(f)));
    const folders = all
      .map((mailbox) => ({ mailbox, path: folderPath(mailbox) }))
      .filter((f) => wanted(f.path))
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const delimiter = all.find((m) => m.delimiter !== null)?.delimiter ?? null;
    const pathOf = (name: string) => folderPath({ name, delimiter, flags: [] });
    yield* missingFolders(run, new Set(all.map((m) => m.name)), pathOf, wanted);
    let total = 0;
    for (const folder of folders) {
      if (run.signal.aborted) return;
      yield* readFolder(run, client, folder, (n) => run.setTotal((total += n)));
    }
  } finally {
    await client.logout();
  }
}

const maxBytes = (run: Run) => Math.min(run.settings.max_message_bytes, run.config.maxBinaryBytes);

/** Known messages of folders the settings still name but the server no longer lists: failed, kept. */
function* missingFolders(
  run: Run,
  listed: Set<string>,
  pathOf: (name: string) => string,
  wanted: (path: string) => boolean,
): Generator<SourceItem> {
  const gone = new Map<string, string | null>();
  for (const key of run.knownKeys()) {
    const folder = KEY.exec(key)?.[1];
    if (folder === undefined || listed.has(folder)) continue;
    let reason = gone.get(folder);
    if (reason === undefined) {
      const path = pathOf(folder);
      reason = wanted(path) ? `the folder ${path} is not on the server any more` : null;
      gone.set(folder, reason);
      if (reason) run.incomplete(reason);
    }
    if (reason) yield { key, failed: reason };
  }
}

async function* readFolder(run: Run, client: ImapClient, folder: Folder, count: (n: number) => void) {
  const name = folder.mailbox.name;
  let uidValidity: number;
  let uids: number[];
  try {
    [uidValidity, uids] = await client.exclusive(name, async (sel) => [
      sel.uidValidity,
      sel.exists > 0 ? await client.uids() : [],
    ]);
  } catch (err) {
    if (!(err instanceof ImapError && err.kind === 'refused')) throw err;
    const reason = `the folder ${folder.path} cannot be read: ${err.message}`;
    run.incomplete(reason);
    for (const key of run.knownKeys()) if (KEY.exec(key)?.[1] === name) yield { key, failed: reason };
    return;
  }
  count(uids.length);
  const same = (now: number) => {
    if (now !== uidValidity) throw new Error(`the UIDVALIDITY of ${folder.path} changed during the run`);
  };
  for (let i = 0; i < uids.length; i += CHUNK) {
    const chunk = uids.slice(i, i + CHUNK);
    const needed = chunk.filter((uid) => {
      const prev = run.previous(keyOf(name, uidValidity, uid));
      return !prev || prev.failed || prev.version !== VERSION;
    });
    const wanted = new Set(needed);
    const meta =
      needed.length === 0
        ? new Map<number, MessageMeta>()
        : await client.exclusive(name, async (sel) => (same(sel.uidValidity), client.meta(needed)));
    for (const uid of chunk) {
      const key = keyOf(name, uidValidity, uid);
      const m = meta.get(uid);
      if (wanted.has(uid) && !m) continue; // expunged since the listing
      yield {
        key,
        version: VERSION,
        load: () => loadMessage(run, client, { folder, uidValidity, uid, meta: m!, same }),
      };
    }
    if (run.signal.aborted) return;
  }
}

interface MessageRef {
  folder: Folder;
  uidValidity: number;
  uid: number;
  meta: MessageMeta;
  same(now: number): void;
}

async function loadMessage(run: Run, client: ImapClient, ref: MessageRef): Promise<SourceDocument | null> {
  const s = run.settings;
  const limit = maxBytes(run);
  const tooLarge = (size: number) => new SkippedItem(`the message has ${size} bytes, more than the limit of ${limit}`);
  if (ref.meta.size > limit) throw tooLarge(ref.meta.size);
  const body = await client.exclusive(ref.folder.mailbox.name, async (sel) => {
    ref.same(sel.uidValidity);
    return client.message(ref.uid);
  });
  if (body === null) return null; // expunged meanwhile
  if ('oversize' in body) throw tooLarge(body.oversize);
  const h = readHeaders(body);
  const key = keyOf(ref.folder.mailbox.name, ref.uidValidity, ref.uid);
  const when = Number.isFinite(h.date) ? h.date : ref.meta.internalDate;
  const subject = h.subject || '(no subject)';
  const crumb =
    subject
      .replace(/[>»/\\›\r\n]+/g, ' ')
      .trim()
      .slice(0, 200) || '(no subject)';
  const grant = s.shared_with;
  return {
    title: subject,
    file_type: 'email',
    path: `${s.breadcrumb || s.owner}/${ref.folder.path}/${crumb}`,
    path_preview: previewUrl(run, ref, h.messageId),
    author: h.from || undefined,
    last_modified: Number.isFinite(when) ? new Date(when).toISOString() : undefined,
    body: { mime_type: 'message/rfc822', bytes: body },
    permissions: {
      allow_anonymous_access: grant.everyone,
      allowed_users: [...new Set([s.owner, ...grant.users])],
      allowed_groups: [...grant.groups],
    },
    custom_properties: [{ name: 'thread_id', value: threadIdOf(h, key) }],
  };
}

function previewUrl(run: Run, ref: MessageRef, messageId: string | null): string {
  const s = run.settings;
  const folder = ref.folder.path.split('/').map(encodeURIComponent).join('/');
  if (!s.url_template) {
    const port = s.port ?? (s.security === 'tls' ? 993 : 143);
    const host = s.host.includes(':') ? `[${s.host}]` : s.host;
    return `imap://${host}:${port}/${folder};UIDVALIDITY=${ref.uidValidity}/;UID=${ref.uid}`;
  }
  return s.url_template
    .replaceAll('{folder}', folder)
    .replaceAll('{uidvalidity}', String(ref.uidValidity))
    .replaceAll('{uid}', String(ref.uid))
    .replaceAll('{message_id}', encodeURIComponent(messageId ?? ''));
}

export const mailConnector: ConnectorModule<MailSettings, MailCredentials> = {
  type: 'mailsuite',
  category: 'mailsuite',
  description: 'messages of IMAP folders (TLS or STARTTLS), threads grouped, attachments extracted',
  settings: MailSettings,
  credentials: MailCredentials,
  datasource: {
    object_definitions: [
      {
        name: 'email',
        property_definitions: [
          { name: 'thread_id', display_label: 'Thread', is_searchable: false, property_type: 'TEXT' },
        ],
      },
    ],
  },
  datasourceUsers: (s) => [s.owner, ...s.shared_with.users],
  items,
};
