/**
 * POST /api/beta/files/upload and `metadata.files`: upload, text extraction,
 * storage per account (others get 404), size limit, bad requests, and the
 * relevant parts of a long file given to the model within the budget.
 */
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import OpenAI from 'openai';
import { chatHarness, startFakeUpstream, type ChatHarness, type FakeUpstream } from '../../support/chat.ts';

let h: ChatHarness;
let up: FakeUpstream;
before(async () => {
  up = await startFakeUpstream();
  h = await chatHarness({ upstream: up.url, env: { FILES_MAX_BYTES: '20000', FILES_CONTEXT_CHARS: '600' } });
});
after(async () => {
  await h.close();
  await up.close();
});
beforeEach(() => {
  up.requests.length = 0;
  up.script = [];
});

async function upload(email: string, content: BlobPart, name = 'notes.txt', type = 'text/plain', field = 'file') {
  const form = new FormData();
  form.append(field, new Blob([content], { type }), name);
  const res = await h.fetch('/api/beta/files/upload', { method: 'POST', key: await h.personal(email), body: form });
  return { status: res.status, body: (await res.json()) as any };
}

describe('upload', () => {
  it('stores the file durably for the account and returns its id and metadata', async () => {
    const r = await upload('alice@example.com', 'The parking garage closes at 22:00.');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.match(r.body.id, /^file-[0-9a-f]{24}$/);
    assert.equal(r.body.filename, 'notes.txt');
    assert.equal(r.body.bytes, 35);
    assert.equal(r.body.chars, 35);
    assert.equal(r.body.object, 'file');
    assert.equal(r.body.text, undefined, 'the text is not echoed');
    const accounts = await readdir(join(h.dir, 'files'));
    assert.equal(accounts.length, 1);
    assert.deepEqual(await readdir(join(h.dir, 'files', accounts[0])), [`${r.body.id}.json`]);
  });

  it('413 above FILES_MAX_BYTES', async () => {
    const r = await upload('alice@example.com', 'x'.repeat(20_001));
    assert.equal(r.status, 413);
    assert.match(r.body.detail, /20000 bytes/);
  });

  it('422 without the field "file" or without a multipart body', async () => {
    let r = await upload('alice@example.com', 'x', 'a.txt', 'text/plain', 'document');
    assert.equal(r.status, 422);
    assert.deepEqual(r.body.detail[0].loc, ['body', 'file']);
    const res = await h.fetch('/api/beta/files/upload', {
      method: 'POST',
      key: await h.personal('alice@example.com'),
      body: '{"file": "x"}',
    });
    assert.equal(res.status, 422);
  });

  it('422 when the format cannot be read', async () => {
    const r = await upload('alice@example.com', 'this is not a PDF', 'broken.pdf', 'application/pdf');
    assert.equal(r.status, 422);
    assert.match(r.body.detail, /cannot be read/);
  });

  it('401 without a key', async () => {
    const res = await h.fetch('/api/beta/files/upload', { method: 'POST', body: new FormData() });
    assert.equal(res.status, 401);
  });
});

describe('metadata.files', () => {
  it('gives the model the file as a numbered source and cites it', async () => {
    const f = (await upload('alice@example.com', 'The parking garage closes at 22:00.')).body;
    up.script = [{ content: ['At 22:00 [1].'] }];
    const client = await h.client('alice@example.com');
    const r = await client.chat.completions.create({
      model: 'fake-model',
      messages: [{ role: 'user', content: 'When does the garage close?' }],
      metadata: { files: [f.id] } as any,
    });
    assert.match(up.requests[0].messages[0].content, /\[1\] notes\.txt\nThe parking garage closes at 22:00\./);
    assert.equal(r.choices[0].message.content, 'At 22:00 [1].');
    assert.deepEqual((r as any).citations, [
      { number: 1, id: f.id, title: 'notes.txt', path_preview: 'notes.txt', datasource: 'file' },
    ]);
  });

  it('the extractive model quotes an attached file', async () => {
    const f = (await upload('alice@example.com', 'Visitors register at the front desk. The garage closes at 22:00.'))
      .body;
    const client = await h.client('alice@example.com');
    const r = await client.chat.completions.create({
      model: 'extractive',
      messages: [{ role: 'user', content: 'Where do visitors register?' }],
      metadata: { files: [f.id], language: 'en' } as any,
    });
    assert.match(r.choices[0].message.content ?? '', /> Visitors register at the front desk\. \[1\]/);
  });

  it('another account cannot use the file (404)', async () => {
    const f = (await upload('alice@example.com', 'private')).body;
    const bob = await h.client('bob@example.com');
    await assert.rejects(
      bob.chat.completions.create({
        model: 'fake-model',
        messages: [{ role: 'user', content: 'x' }],
        metadata: { files: [f.id] } as any,
      }),
      (err: any) => {
        assert.ok(err instanceof OpenAI.NotFoundError);
        assert.equal(err.code, 'file_not_found');
        return true;
      },
    );
  });

  it('a long file is cut to the passages relevant to the question, within the budget', async () => {
    const filler = (i: number) =>
      `Paragraph ${i} talks about office plants and the weekly cleaning schedule of the kitchen.`;
    const paras = Array.from({ length: 40 }, (_, i) => filler(i));
    paras[27] = 'The zeppelin hangar is open to visitors on Sundays only.';
    const f = (await upload('alice@example.com', paras.join('\n\n'))).body;
    assert.ok(f.chars > 3000);
    const client = await h.client('alice@example.com');
    await client.chat.completions.create({
      model: 'fake-model',
      messages: [{ role: 'user', content: 'When can I visit the zeppelin hangar?' }],
      metadata: { files: [f.id], language: 'en' } as any,
    });
    const system: string = up.requests[0].messages[0].content;
    assert.match(system, /zeppelin hangar is open to visitors on Sundays/);
    assert.match(system, /\[\.\.\.\]/);
    const fileText = system.slice(system.indexOf('[1] notes.txt'));
    assert.ok(fileText.length < 800, `file excerpt of ${fileText.length} characters`);
  });
});
