/**
 * What the mail connector reads from a message header: decoded subject and sender, the date,
 * and the thread: the root of References, else In-Reply-To, else the own Message-ID, else
 * the fallback; long ids are hashed.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readHeaders, threadIdOf } from '../../../../src/connectors/mail/message.ts';

const msg = (head: string) => Buffer.from(`${head}\r\n\r\nbody\r\nReferences: <not@header>\r\n`);

describe('mail message headers', () => {
  it('reads the fields, folded and encoded', () => {
    const h = readHeaders(
      msg(
        [
          'Subject: =?utf-8?q?Gr=C3=BC=C3=9Fe?=',
          ' aus Berlin',
          'From: =?iso-8859-1?q?J=F6rg?= <jorg@example.com>',
          'Date: Tue, 1 Jul 2003 10:52:37 +0200 (CEST)',
          'Message-ID: <m3@example.com>',
          'In-Reply-To: <m2@example.com>',
          'References: <m1@example.com>',
          '\t<m2@example.com>',
        ].join('\r\n'),
      ),
    );
    assert.equal(h.subject, 'Grüße aus Berlin');
    assert.equal(h.from, 'Jörg <jorg@example.com>');
    assert.equal(new Date(h.date).toISOString(), '2003-07-01T08:52:37.000Z');
    assert.equal(h.messageId, 'm3@example.com');
    assert.deepEqual(h.references, ['m1@example.com', 'm2@example.com']);
    assert.deepEqual(h.inReplyTo, ['m2@example.com']);
    assert.equal(threadIdOf(h, 'key'), 'm1@example.com');
  });

  it('falls back to In-Reply-To, the own Message-ID, then the given key', () => {
    assert.equal(threadIdOf(readHeaders(msg('In-Reply-To: <p@x>\r\nMessage-ID: <c@x>')), 'k'), 'p@x');
    assert.equal(threadIdOf(readHeaders(msg('Message-ID: <c@x>')), 'k'), 'c@x');
    assert.equal(threadIdOf(readHeaders(msg('Subject: alone')), 'INBOX/1/7'), 'INBOX/1/7');
  });

  it('hashes a thread id that is too long, and reads no header from the body', () => {
    const long = `${'a'.repeat(300)}@x`;
    assert.match(threadIdOf(readHeaders(msg(`Message-ID: <${long}>`)), 'k'), /^sha256:[0-9a-f]{64}$/);
    const h = readHeaders(msg('Subject: s'));
    assert.deepEqual(h.references, [], 'the References line after the blank line is body text');
    assert.ok(Number.isNaN(h.date));
  });
});
