/**
 * A real IMAP server for the mail connector's tests: Debian's Dovecot (`dovecot-imapd`) started
 * on 127.0.0.1 with a configuration of its own in a temporary folder (its own base_dir, a
 * passwd-file user database, Maildir++ mailboxes under the folder), a plain IMAP port (which also
 * offers STARTTLS) and an implicit-TLS port with a self-signed certificate made by openssl for
 * 127.0.0.1. Messages are delivered as Maildir files (the server assigns UIDs when it next
 * looks); folders can be removed, restored and have their UIDVALIDITY reset; the server can be
 * stopped and started again on the same ports.
 *
 * Run as root, Dovecot's login processes use its `dovenull` user and the mail processes `nobody`
 * (Dovecot refuses mail access as uid 0), so the files are handed to `nobody`; otherwise
 * everything runs as the current user.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmod, chown, mkdir, mkdtemp, readdir, readFile, rename, rm, utimes, writeFile } from 'node:fs/promises';
import { createServer, connect } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

const DOVECOT = '/usr/sbin/dovecot';
const NOBODY = 65534;

export interface MailSpec {
  from?: string;
  to?: string;
  subject: string;
  /** RFC 5322 date text; default a fixed date. */
  date?: string;
  messageId?: string;
  inReplyTo?: string;
  references?: string[];
  body: string;
  attachments?: { name: string; type: string; content: string | Uint8Array }[];
}

/** An RFC 5322 message (MIME multipart when it has attachments). */
export function mailText(m: MailSpec): string {
  const head = [
    `From: ${m.from ?? 'Ann Example <ann@example.com>'}`,
    `To: ${m.to ?? 'team@example.com'}`,
    `Subject: ${m.subject}`,
    `Date: ${m.date ?? 'Thu, 01 Jan 2026 10:00:00 +0000'}`,
    ...(m.messageId ? [`Message-ID: <${m.messageId}>`] : []),
    ...(m.inReplyTo ? [`In-Reply-To: <${m.inReplyTo}>`] : []),
    ...(m.references ? [`References: ${m.references.map((r) => `<${r}>`).join(' ')}`] : []),
    'MIME-Version: 1.0',
  ];
  if (!m.attachments?.length) return [...head, 'Content-Type: text/plain; charset=utf-8', '', m.body, ''].join('\r\n');
  const b = 'b0undary-42';
  const parts = [`--${b}`, 'Content-Type: text/plain; charset=utf-8', '', m.body];
  for (const a of m.attachments) {
    parts.push(
      `--${b}`,
      `Content-Type: ${a.type}; name="${a.name}"`,
      `Content-Disposition: attachment; filename="${a.name}"`,
      'Content-Transfer-Encoding: base64',
      '',
      Buffer.from(a.content).toString('base64'),
    );
  }
  parts.push(`--${b}--`, '');
  return [...head, `Content-Type: multipart/mixed; boundary="${b}"`, '', ...parts].join('\r\n');
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Resolves once `port` answers with an IMAP greeting naming the server ready (`tls`: accepts a connection). */
async function greets(port: number, deadline: number, tls = false): Promise<void> {
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1');
      let text = '';
      if (tls) s.on('connect', () => (s.destroy(), resolve(true)));
      s.on('data', (d) => {
        text += d.toString();
        if (/ready/i.test(text)) {
          s.destroy();
          resolve(true);
        }
      });
      s.on('error', () => resolve(false));
      s.setTimeout(2000, () => (s.destroy(), resolve(false)));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`dovecot did not start on port ${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface Dovecot {
  port: number;
  tlsPort: number;
  /** The server certificate (PEM), to trust in `ca_certificate`. */
  certificate: string;
  /** Add a user (the passwd file is read at every login). */
  addUser(email: string, password: string): Promise<void>;
  /** Deliver a message into `folder` (`INBOX`, `Sent`, `Projects.Alpha`); returns the file path. */
  deliver(email: string, folder: string, message: string | Uint8Array, mtime?: number): Promise<string>;
  /** The Maildir folder of `folder`. */
  folderDir(email: string, folder: string): string;
  /** Remove every file of a message (an expunge seen at the next login). */
  expunge(file: string): Promise<void>;
  /** Move a folder away (`hide`) or back (`restore`). */
  hideFolder(email: string, folder: string): Promise<void>;
  restoreFolder(email: string, folder: string): Promise<void>;
  /** Make the server assign a new UIDVALIDITY to the folder (its UID list and indexes removed). */
  resetUidValidity(email: string, folder: string): Promise<void>;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function startDovecot(): Promise<Dovecot> {
  const dir = await mkdtemp(join(tmpdir(), 'dovecot-'));
  await chmod(dir, 0o755);
  const root = process.getuid?.() === 0;
  const me = userInfo().username;
  const mailUid = root ? NOBODY : userInfo().uid;
  const mailGid = root ? NOBODY : userInfo().gid;
  const own = async (path: string) => {
    if (root) await chown(path, mailUid, mailGid);
  };
  for (const d of ['run', 'state', 'home']) await mkdir(join(dir, d));
  await own(join(dir, 'home'));
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
    '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '2',
    '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost',
  ], { stdio: 'ignore' }); // prettier-ignore
  const certificate = await readFile(join(dir, 'cert.pem'), 'utf8');
  await writeFile(join(dir, 'passwd'), '');
  const port = await freePort();
  const tlsPort = await freePort();
  await writeFile(
    join(dir, 'dovecot.conf'),
    `base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${dir}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = yes
ssl_cert = <${dir}/cert.pem
ssl_key = <${dir}/key.pem
disable_plaintext_auth = no
auth_mechanisms = plain login
first_valid_uid = 1
default_internal_user = ${root ? 'dovecot' : me}
default_internal_group = ${root ? 'dovecot' : userInfo().username}
default_login_user = ${root ? 'dovenull' : me}
mail_location = maildir:~/Maildir
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${dir}/passwd
}
userdb {
  driver = passwd-file
  args = username_format=%u ${dir}/passwd
  default_fields = uid=${mailUid} gid=${mailGid}
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    address = 127.0.0.1
    port = ${tlsPort}
    ssl = yes
  }
  chroot =
}
service anvil {
  chroot =
}
service stats {
  chroot =
}
`,
  );
  let child: ChildProcess | null = null;
  const home = (email: string) => join(dir, 'home', email);
  const folderDir = (email: string, folder: string) =>
    folder === 'INBOX' ? join(home(email), 'Maildir') : join(home(email), 'Maildir', `.${folder}`);
  let unique = 0;

  const start = async () => {
    child = spawn(DOVECOT, ['-F', '-c', join(dir, 'dovecot.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    const exited = new Promise<never>((_, reject) =>
      child!.once('exit', (code) => reject(new Error(`dovecot exited (${code}): ${stderr}`))),
    );
    const deadline = Date.now() + 20_000;
    await Promise.race([Promise.all([greets(port, deadline), greets(tlsPort, deadline, true)]), exited]);
  };
  const stop = async () => {
    const c = child;
    child = null;
    if (!c || c.exitCode !== null) return;
    const gone = new Promise((resolve) => c.once('exit', resolve));
    c.kill('SIGTERM');
    await gone;
  };
  await start();

  return {
    port,
    tlsPort,
    certificate,
    async addUser(email, password) {
      await mkdir(home(email), { recursive: true });
      for (const d of ['cur', 'new', 'tmp']) await mkdir(join(home(email), 'Maildir', d), { recursive: true });
      await own(home(email));
      await own(join(home(email), 'Maildir'));
      for (const d of ['cur', 'new', 'tmp']) await own(join(home(email), 'Maildir', d));
      const line = `${email}:{PLAIN}${password}::::${home(email)}\n`;
      await writeFile(join(dir, 'passwd'), (await readFile(join(dir, 'passwd'), 'utf8')) + line);
    },
    async deliver(email, folder, message, mtime) {
      const fd = folderDir(email, folder);
      for (const d of ['cur', 'new', 'tmp']) {
        await mkdir(join(fd, d), { recursive: true });
        await own(join(fd, d));
      }
      await own(fd);
      const file = join(fd, 'cur', `${Date.now()}.M${++unique}P${process.pid}.test:2,S`);
      await writeFile(file, message);
      if (mtime !== undefined) await utimes(file, mtime, mtime);
      await own(file);
      return file;
    },
    folderDir,
    async expunge(file) {
      await rm(file, { force: true });
    },
    async hideFolder(email, folder) {
      await rename(folderDir(email, folder), join(home(email), `hidden-${folder}`));
    },
    async restoreFolder(email, folder) {
      await rename(join(home(email), `hidden-${folder}`), folderDir(email, folder));
    },
    async resetUidValidity(email, folder) {
      const fd = folderDir(email, folder);
      // The uidlist and the indexes go; `dovecot-uidvalidity` stays, so the next value is a new one.
      for (const f of await readdir(fd))
        if (f === 'dovecot-uidlist' || f.startsWith('dovecot.index')) await rm(join(fd, f), { recursive: true });
    },
    stop,
    start,
    async close() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
