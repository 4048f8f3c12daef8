/**
 * The API reference page (GET /api/docs): the OpenAPI document rendered on
 * the server as one self-contained HTML page, with no script, no inline style
 * and nothing from another origin (the pages' CSP forbids them). Every text
 * from the document is HTML-escaped. Per tag, each operation shows its method
 * and path, summary, description, accepted credentials, parameters, request
 * body and responses; the component schemas follow as JSON, each with an anchor
 * the `$ref`s link to.
 */
import { escapeHtml as esc } from '../search/markup.ts';
import type { JsonSchema } from './schema.ts';

type Obj = Record<string, any>;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** Inline form of a schema: its `$ref` name as a link, else a short type, else JSON. */
function schemaRef(s: Obj | undefined): string {
  if (!s) return '';
  if (typeof s.$ref === 'string') {
    const name = s.$ref.split('/').pop()!;
    return `<a href="#${esc(anchor(s.$ref))}">${esc(name)}</a>`;
  }
  if (s.type === 'array' && s.items) return `array of ${schemaRef(s.items)}`;
  return `<pre>${esc(JSON.stringify(s, null, 2))}</pre>`;
}

const anchor = (ref: string) => ref.replace(/^#\//, '').replaceAll('/', '-');

function security(op: Obj, schemes: Obj): string {
  const reqs = (op.security ?? []) as Obj[];
  if (reqs.length === 0) return 'none';
  return reqs
    .map((r) =>
      Object.keys(r)
        .map((k) => `<abbr title="${esc(String(schemes[k]?.description ?? ''))}">${esc(k)}</abbr>`)
        .join(' + '),
    )
    .join(' or ');
}

function parameters(op: Obj): string {
  const ps = (op.parameters ?? []) as Obj[];
  if (ps.length === 0) return '';
  const rows = ps.map(
    (p) =>
      `<tr><td><code>${esc(p.name)}</code></td><td>${esc(p.in)}</td><td>${p.required ? 'yes' : 'no'}</td>` +
      `<td>${schemaRef(p.schema)}</td><td>${esc(p.description ?? '')}</td></tr>`,
  );
  return `<table><caption>Parameters</caption><tr><th>Name</th><th>In</th><th>Required</th><th>Schema</th><th>Description</th></tr>${rows.join('')}</table>`;
}

function content(c: Obj | undefined): string {
  if (!c) return '';
  return Object.entries(c)
    .map(([media, m]) => `<div><code>${esc(media)}</code> ${schemaRef((m as Obj).schema)}</div>`)
    .join('');
}

function responses(op: Obj, doc: Obj): string {
  const rows = Object.entries((op.responses ?? {}) as Obj).map(([status, given]) => {
    const r = typeof given.$ref === 'string' ? doc.components.responses[given.$ref.split('/').pop()!] : given;
    return `<tr><td>${esc(status)}</td><td>${esc(r?.description ?? '')}</td><td>${content(r?.content)}</td></tr>`;
  });
  return `<table><caption>Responses</caption><tr><th>Status</th><th>Description</th><th>Body</th></tr>${rows.join('')}</table>`;
}

function operation(path: string, method: string, op: Obj, doc: Obj): string {
  const body = op.requestBody
    ? `<h4>Request body${op.requestBody.required ? '' : ' (optional)'}</h4>${content(op.requestBody.content)}`
    : '';
  return [
    `<section id="${esc(op.operationId)}"><h3><code>${esc(method.toUpperCase())} ${esc(path)}</code></h3>`,
    `<p><strong>${esc(op.summary ?? '')}</strong> <small>(${esc(op.operationId)})</small></p>`,
    op.description ? `<p>${esc(op.description)}</p>` : '',
    `<p>Credentials: ${security(op, doc.components.securitySchemes)}</p>`,
    parameters(op),
    body,
    responses(op, doc),
    '</section>',
  ].join('\n');
}

/** The reference page of `doc`. */
export function referencePage(doc: JsonSchema): string {
  const d = doc as Obj;
  const byTag = new Map<string, string[]>((d.tags as Obj[]).map((t) => [t.name, []]));
  const toc: string[] = [];
  for (const [path, item] of Object.entries(d.paths as Obj)) {
    for (const method of METHODS) {
      const op = (item as Obj)[method];
      if (!op) continue;
      byTag.get(op.tags[0])?.push(operation(path, method, op, d));
    }
  }
  const sections = (d.tags as Obj[]).map((t) => {
    toc.push(`<li><a href="#tag-${esc(slug(t.name))}">${esc(t.name)}</a></li>`);
    const ops = byTag.get(t.name) ?? [];
    return `<section id="tag-${esc(slug(t.name))}"><h2>${esc(t.name)}</h2><p>${esc(t.description ?? '')}</p>${ops.join('\n')}</section>`;
  });
  const schemas = Object.entries(d.components.schemas as Obj).map(
    ([name, s]) =>
      `<section id="${esc(anchor(`#/components/schemas/${name}`))}"><h3>${esc(name)}</h3><pre>${esc(JSON.stringify(s, null, 2))}</pre></section>`,
  );
  const title = `${d.info.title} API ${d.info.version}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title></head>
<body><header><h1>${esc(title)}</h1><p>${esc(d.info.description ?? '')}</p>
<p>OpenAPI ${esc(d.openapi)} document: <a href="/api/beta/openapi.json">/api/beta/openapi.json</a></p></header>
<nav><h2>Contents</h2><ul>${toc.join('')}<li><a href="#schemas">Schemas</a></li></ul></nav>
<main>${sections.join('\n')}<section id="schemas"><h2>Schemas</h2>${schemas.join('\n')}</section></main>
</body></html>`;
}

const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-');
