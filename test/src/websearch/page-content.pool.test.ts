/**
 * pageContent reads HTML/XHTML and PDF pages through the extractors' worker pool and never
 * parses them on the calling thread: with the pool readers (poolPageExtractors) every such
 * page becomes exactly one pool job carrying the body, the header's charset, the character
 * budget and the 10 s wall-time limit, and the pool's answer is the page content. Plain text is
 * decoded here without a job. A pool failure (TIMEOUT, ABORTED, ...) rejects with the ExtractionError.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ExtractionError, type JobRunner, type PoolJob } from '../../../extractors/index.ts';
import type { FetchedPage } from '../../../src/websearch/crawler.ts';
import { PAGE_EXTRACT_TIMEOUT_MS, pageContent, poolPageExtractors } from '../../../src/websearch/page-content.ts';
import { ARTICLE } from '../../support/fake-web.ts';

const enc = (s: string) => new TextEncoder().encode(s);
const page = (mediaType: string, body: string, extra: Partial<FetchedPage> = {}): FetchedPage => ({
  url: 'https://example.com/p',
  mediaType,
  body: enc(body),
  truncated: false,
  status: 200,
  ...extra,
});

/** A pool stand-in recording its jobs and answering `answer(job)` (no worker is started). */
function spyPool(answer: (job: PoolJob) => unknown) {
  const jobs: PoolJob[] = [];
  const pool = {
    run: async (job: PoolJob) => {
      jobs.push(job);
      return answer(job);
    },
  } as unknown as JobRunner;
  return { jobs, pool };
}

const never = new AbortController().signal;

describe('pageContent with the pool readers', () => {
  for (const mediaType of ['text/html', 'application/xhtml+xml']) {
    it(`${mediaType}: one main-content job with body, charset, budget and time limit; the pool's answer is the content`, async () => {
      const { jobs, pool } = spyPool(() => ({
        title: 'Pool title',
        description: 'Pool description',
        text: 'Pool text',
        truncated: false,
      }));
      const p = page(mediaType, ARTICLE('Parsed elsewhere', 'Body'), { charset: 'iso-8859-1', truncated: true });
      const content = await pageContent(p, 321, poolPageExtractors(pool), never);
      assert.deepEqual(content, {
        title: 'Pool title',
        description: 'Pool description',
        text: 'Pool text',
        truncated: true,
      });
      assert.equal(jobs.length, 1);
      const [job] = jobs;
      assert.equal(job.kind, 'main-content');
      assert.equal(job.bytes, p.body);
      assert.deepEqual(job.params, { charset: 'iso-8859-1' });
      assert.equal(job.limits.maxOutputChars, 321);
      assert.equal(job.limits.timeoutMs, PAGE_EXTRACT_TIMEOUT_MS);
      assert.equal(job.signal, never);
    });
  }

  it('PDF: one registry extraction job under the same time limit, text cut at the budget', async () => {
    const { jobs, pool } = spyPool(() => ({ text: '  word '.repeat(100), title: 'PDF title', sections: [] }));
    const content = await pageContent(page('application/pdf', '%PDF-1.4'), 50, poolPageExtractors(pool), never);
    assert.equal(jobs.length, 1);
    assert.equal(jobs[0].kind ?? 'extract', 'extract');
    assert.equal(jobs[0].mediaType, 'application/pdf');
    assert.equal(jobs[0].limits.timeoutMs, PAGE_EXTRACT_TIMEOUT_MS);
    assert.equal(content.title, 'PDF title');
    assert.equal(content.truncated, true);
    assert.ok(content.text.length <= 51);
  });

  it('plain text is decoded without a pool job', async () => {
    const { jobs, pool } = spyPool(() => assert.fail('no job expected'));
    const content = await pageContent(page('text/plain', 'Line one\r\nLine two'), 100, poolPageExtractors(pool), never);
    assert.deepEqual(content, { text: 'Line one\nLine two', truncated: false });
    assert.equal(jobs.length, 0);
  });

  it('a pool failure rejects with the ExtractionError (the crawler keeps the snippet)', async () => {
    for (const code of ['TIMEOUT', 'ABORTED', 'OVERLOADED', 'CORRUPT'] as const) {
      const { pool } = spyPool(() => {
        throw new ExtractionError(code, `pool says ${code}`);
      });
      await assert.rejects(
        pageContent(page('text/html', '<p>x</p>'), 100, poolPageExtractors(pool), never),
        (err: unknown) => err instanceof ExtractionError && err.code === code,
      );
    }
  });
});
