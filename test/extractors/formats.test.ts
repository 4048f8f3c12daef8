/**
 * Extracted text and metadata per format, from the committed fixtures in ./fixtures
 * (regenerate with `node --import tsx test/extractors/fixtures/build-fixtures.ts`).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { extractInline } from '../../extractors/index.ts';
import type { Extraction } from '../../extractors/index.ts';

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`./fixtures/${name}`, import.meta.url)));
const run = (name: string, mediaType: string) => extractInline(fixture(name), { mediaType, fileName: name });
const sectionText = (e: Extraction, i: number) => e.text.slice(e.sections[i].start, e.sections[i].end);

describe('extract text per format', () => {
  it('PDF: text per page with page sections, title, author, page count', async () => {
    const e = await run('sample.pdf', 'application/pdf');
    assert.equal(e.pageCount, 2);
    assert.equal(e.title, 'Quarterly Report');
    assert.equal(e.author, 'Erika Mustermann');
    assert.deepEqual(
      e.sections.map((s) => [s.kind, s.label]),
      [
        ['page', '1'],
        ['page', '2'],
      ],
    );
    assert.match(sectionText(e, 0), /Zebrafish migration study\nPage one discusses aquatic habitats\./);
    assert.equal(sectionText(e, 1), 'Second page about kelp forests.');
  });

  it('DOCX: paragraphs via mammoth, core properties', async () => {
    const e = await run('sample.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    assert.equal(
      e.text,
      'Heading about photosynthesis\n\nChlorophyll absorbs light in the red and blue bands.\n\nGrößenordnung und Übersicht.',
    );
    assert.equal(e.title, 'Quarterly Report');
    assert.equal(e.author, 'Erika Mustermann');
  });

  it('PPTX: slide text and speaker notes per slide, without the notes slide number', async () => {
    const e = await run('sample.pptx', 'application/vnd.openxmlformats-officedocument.presentationml.presentation');
    assert.equal(e.pageCount, 2);
    assert.deepEqual(
      e.sections.map((s) => s.kind),
      ['slide', 'slide'],
    );
    assert.equal(sectionText(e, 0), 'Roadmap 2027\n\nLaunch the telescope\n\nSpeaker notes mention nebula funding.');
    assert.equal(sectionText(e, 1), 'Budget overview\n\nRemember the asteroid survey.');
    assert.equal(e.language, 'en');
  });

  it('XLSX: cells by row with sheet names, shared strings, numbers and booleans', async () => {
    const e = await run('sample.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    assert.deepEqual(
      e.sections.map((s) => [s.kind, s.label]),
      [
        ['sheet', 'Inventory'],
        ['sheet', 'Suppliers'],
      ],
    );
    assert.equal(sectionText(e, 0), 'Inventory\nItem\tCount\nHarpsichord\t3\nTheremin\t7');
    assert.equal(sectionText(e, 1), 'Suppliers\nName\tActive\nAcme Instruments\tTRUE');
    assert.equal(e.pageCount, 2);
  });

  it('ODT: headings and paragraphs with text:s spaces, meta title and initial creator', async () => {
    const e = await run('sample.odt', 'application/vnd.oasis.opendocument.text');
    assert.equal(e.text, 'Glacier Observations\n\nMoraine deposits were sampled at  three sites.');
    assert.equal(e.title, 'Quarterly Report');
    assert.equal(e.author, 'Erika Mustermann');
  });

  it('ODS: tables as sheet sections', async () => {
    const e = await run('sample.ods', 'application/vnd.oasis.opendocument.spreadsheet');
    assert.deepEqual(
      e.sections.map((s) => s.label),
      ['Ledger', 'Notes'],
    );
    assert.equal(sectionText(e, 0), 'Ledger\nAccount\tBalance\nPetty cash\t420.5');
    assert.equal(sectionText(e, 1), 'Notes\nAudit pending');
  });

  it('ODP: pages as slide sections including notes', async () => {
    const e = await run('sample.odp', 'application/vnd.oasis.opendocument.presentation');
    assert.equal(e.pageCount, 2);
    assert.equal(sectionText(e, 0), 'Volcano Talk\n\nMagma chambers\n\nMention pyroclastic flows.');
    assert.equal(sectionText(e, 1), 'Questions');
  });

  it('HTML: visible text and title, no script or style, entities decoded', async () => {
    const e = await run('sample.html', 'text/html; charset=utf-8');
    assert.equal(e.title, 'Birdwatching Guide');
    assert.match(e.text, /Kingfishers nest near rivers & streams\./);
    assert.doesNotMatch(e.text, /script text|color: red|Birdwatching/);
    assert.equal(e.language, 'en');
  });

  it('HTML: charset from <meta> when the media type has none', async () => {
    const html =
      '<html><head><meta charset="iso-8859-1"><title>Caf\u00e9</title></head><body><p>Men\u00fc</p><p>Cr\u00e8me</p></body></html>';
    const bytes = new Uint8Array(Buffer.from(html, 'latin1'));
    const e = await extractInline(bytes, { mediaType: 'text/html' });
    assert.equal(e.title, 'Café');
    assert.equal(e.text, 'Menü\n\nCrème');
  });

  it('XHTML: numeric and named entities, no template content, xml:lang hint', async () => {
    const e = await run('sample.xhtml', 'application/xhtml+xml');
    assert.equal(e.text, 'Alpenpfade\n\nDer Weg führt über den Pass.');
    assert.equal(e.title, 'Wanderkarte');
    assert.equal(e.language, 'de');
  });

  it('plain text: CRLF normalised; UTF-16 LE with BOM decoded', async () => {
    assert.equal((await run('sample.txt', 'text/plain')).text, 'Plain text about walruses.\nSecond line.\n');
    assert.equal((await run('sample-utf16.txt', 'text/plain')).text, 'UTF-16 text über Nordlichter');
  });

  it('plain text: UTF-16 BE with BOM decoded', async () => {
    const be = Uint8Array.from([
      0xfe,
      0xff,
      ...[...'Grüße'].flatMap((c) => [c.charCodeAt(0) >> 8, c.charCodeAt(0) & 0xff]),
    ]);
    assert.equal((await extractInline(be, { mediaType: 'application/octet-stream' })).text, 'Grüße');
  });

  it('plain text: declared charset parameter is honoured', async () => {
    const latin = Uint8Array.from([0x4d, 0xfc, 0x6c, 0x6c, 0x65, 0x72]); // "Müller" in ISO-8859-1
    assert.equal((await extractInline(latin, { mediaType: 'text/plain; charset=ISO-8859-1' })).text, 'Müller');
  });

  it('Markdown: text kept, first heading as title', async () => {
    const e = await run('sample.md', 'text/markdown');
    assert.equal(e.title, 'Sourdough Notes');
    assert.match(e.text, /Feed the \*starter\* daily\./);
  });

  it('CSV and TSV: quoted fields unquoted, cells tab-separated', async () => {
    assert.equal(
      (await run('sample.csv', 'text/csv')).text,
      'name\tcity\tquote\nSmith, Anna\tBerlin\tShe said "hello"\nOkafor\tLagos\tplain',
    );
    assert.equal((await run('sample.tsv', 'text/tab-separated-values')).text, 'sku\tdescription\nA-1\tTitanium spork');
  });

  it('JSON: keys and scalar values, one per line', async () => {
    assert.equal(
      (await run('sample.json', 'application/json')).text,
      'product: Gyroscope\nnavigation\nprecision\nmaker: Orbital GmbH\ncount: 12',
    );
  });

  it('XML: text nodes with entities, title element', async () => {
    const e = await run('sample.xml', 'application/xml');
    assert.equal(e.text, 'Seed Catalog\nHeirloom tomato\nPurple carrot & kale');
    assert.equal(e.title, 'Seed Catalog');
  });

  it('YAML and source code: decoded as text', async () => {
    assert.match((await run('sample.yaml', 'application/yaml')).text, /Beacon relay for harbours/);
    assert.match((await run('sample.py', 'text/x-python')).text, /def compute_tide\(height\):/);
  });

  it('email: decoded headers, quoted-printable Latin-1 body, plain alternative only, attachments as parts', async () => {
    const e = await run('sample.eml', 'message/rfc822');
    assert.equal(e.title, 'Quartalsbericht für März');
    assert.equal(e.author, 'Jürgen Müller <juergen@example.com>');
    assert.match(
      e.text,
      /^From: Jürgen Müller <juergen@example\.com>\nTo: team@example\.com\nSubject: Quartalsbericht für März\nDate: Tue, 03 Mar 2026/,
    );
    assert.match(e.text, /Die Umsätze im Norden sind gestiegen\. Sehr schön, ein langer Satz mit Umbruch\./);
    assert.doesNotMatch(e.text, /HTML alternative/);
    assert.deepEqual(
      e.sections.map((s) => [s.kind, s.label]),
      [
        ['part', 'notes.txt'],
        ['part', 'report.docx'],
      ],
    );
    assert.equal(sectionText(e, 0), 'notes.txt\nAttachment mentions the word pangolin.');
    assert.match(sectionText(e, 1), /Chlorophyll absorbs light/);
  });

  it('email: attachments are skipped beyond the depth limit, the message still extracts', async () => {
    const e = await extractInline(fixture('sample.eml'), { mediaType: 'message/rfc822', limits: { maxDepth: 0 } });
    assert.match(e.text, /Die Umsätze/);
    assert.doesNotMatch(e.text, /pangolin/);
  });

  it('email: attached message extracted recursively', async () => {
    const inner = 'From: inner@example.com\r\nSubject: Inner\r\n\r\nNested body about capybaras.\r\n';
    const outer =
      'From: outer@example.com\r\nSubject: Fwd\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nSee attached.\r\n' +
      `--b\r\nContent-Type: message/rfc822\r\nContent-Disposition: attachment; filename="fwd.eml"\r\n\r\n${inner}--b--\r\n`;
    const e = await extractInline(new TextEncoder().encode(outer), { mediaType: 'message/rfc822' });
    assert.equal(e.sections.length, 1);
    assert.equal(e.sections[0].label, 'fwd.eml');
    assert.match(e.text, /See attached\.[\s\S]*From: inner@example\.com[\s\S]*capybaras/);
  });

  it('email: HTML-only body is converted to visible text', async () => {
    const msg =
      'From: a@example.com\r\nSubject: hi\r\nContent-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n' +
      Buffer.from('<html><body><script>x()</script><p>Caf\u00e9 meeting</p></body></html>').toString('base64') +
      '\r\n';
    const e = await extractInline(new TextEncoder().encode(msg), { mediaType: 'message/rfc822' });
    assert.equal(e.text, 'From: a@example.com\nSubject: hi\n\nCafé meeting');
  });

  it('RTF: control words stripped, \\uN escapes, info title and author', async () => {
    const e = await run('sample.rtf', 'application/rtf');
    assert.equal(e.text, 'Lighthouse keeper log.\nTemperature fell to \u22125 degrees, très froid.');
    assert.equal(e.title, 'Quarterly Report');
    assert.equal(e.author, 'Erika Mustermann');
  });

  it('RTF: hex escapes decoded with the code page', async () => {
    const rtf = new TextEncoder().encode(
      "{\\rtf1\\ansi\\ansicpg1252 Gr\\'fc\\'dfe {\\*\\generator Foo;}aus K\\'f6ln\\par}",
    );
    assert.equal((await extractInline(rtf, { mediaType: 'text/rtf' })).text, 'Grüße aus Köln');
  });

  it('legacy DOC and images: metadata only with an empty body', async () => {
    for (const [name, type] of [
      ['sample.doc', 'application/msword'],
      ['sample.png', 'image/png'],
    ]) {
      const e = await run(name, type);
      assert.equal(e.text, '');
      assert.equal(e.metadataOnly, true);
    }
    const xls = await extractInline(fixture('sample.doc'), { mediaType: 'application/vnd.ms-excel' });
    assert.equal(xls.metadataOnly, true);
  });

  it('ZIP archive: member names and member text as part sections', async () => {
    const e = await run('sample.zip', 'application/zip');
    assert.deepEqual(
      e.sections.map((s) => s.label),
      ['docs/readme.txt', 'slides.pptx'],
    );
    assert.match(sectionText(e, 0), /quokkas/);
    assert.match(sectionText(e, 1), /nebula funding/);
  });
});

describe('unknown media types', () => {
  const cases: [string, RegExp][] = [
    ['sample.pdf', /Zebrafish/],
    ['sample.docx', /Chlorophyll/],
    ['sample.pptx', /telescope/],
    ['sample.xlsx', /Harpsichord/],
    ['sample.odt', /Moraine/],
    ['sample.ods', /Petty cash/],
    ['sample.odp', /Magma/],
    ['sample.rtf', /Lighthouse/],
    ['sample.html', /Kingfishers/],
    ['sample-utf16.txt', /Nordlichter/],
  ];
  for (const [name, expected] of cases) {
    it(`sniffs ${name} from its content without a media type or name`, async () => {
      const e = await extractInline(fixture(name), { mediaType: 'application/octet-stream' });
      assert.match(e.text, expected);
    });
  }

  it('uses the file extension when the media type is unknown', async () => {
    const e = await extractInline(fixture('sample.csv'), {
      mediaType: 'application/x-unknown',
      fileName: 'people.csv',
    });
    assert.match(e.text, /Smith, Anna\tBerlin/);
  });

  it('falls back to metadata only for binary-looking data', async () => {
    const bytes = Uint8Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256);
    const e = await extractInline(bytes, { mediaType: 'application/x-whatever' });
    assert.equal(e.metadataOnly, true);
    assert.equal(e.text, '');
  });

  it('structured syntax suffixes route to XML and JSON', async () => {
    assert.match(
      (await extractInline(fixture('sample.xml'), { mediaType: 'application/atom+xml' })).text,
      /Heirloom tomato/,
    );
    assert.match(
      (await extractInline(fixture('sample.json'), { mediaType: 'application/ld+json' })).text,
      /maker: Orbital GmbH/,
    );
  });
});

describe('output limit', () => {
  it('truncates text at maxOutputChars and flags it', async () => {
    const e = await run('sample.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet').then(() =>
      extractInline(fixture('sample.xlsx'), {
        mediaType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        limits: { maxOutputChars: 20 },
      }),
    );
    assert.equal(e.text.length, 20);
    assert.equal(e.truncated, true);
    for (const s of e.sections) assert.ok(s.end <= 20);
  });
});
