/**
 * Helpers shared by the OOXML extractors (DOCX, PPTX, XLSX): document properties from
 * docProps/core.xml (title, creator) and relationship targets from *.rels parts.
 */
import type { ZipReader } from '../zip-reader.ts';
import { attr, findAll, findFirst, parseXml, textContent } from '../xml.ts';

export interface CoreProperties {
  title?: string;
  author?: string;
}

/** Title and creator from docProps/core.xml; missing part or fields give undefined. */
export function readCoreProperties(zip: ZipReader): CoreProperties {
  const xml = zip.readText('docProps/core.xml');
  if (!xml) return {};
  const tree = parseXml(xml, 'core properties');
  const title = findFirst(tree, 'title');
  const creator = findFirst(tree, 'creator');
  return {
    title: title ? textContent(title.children) : undefined,
    author: creator ? textContent(creator.children) : undefined,
  };
}

/** Resolves a relationship target relative to the folder of the source part. */
export function resolveTarget(sourcePart: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const base = sourcePart.split('/').slice(0, -1);
  for (const seg of target.split('/')) {
    if (seg === '..') base.pop();
    else if (seg !== '.') base.push(seg);
  }
  return base.join('/');
}

/** Map relationship id -> {target part path, type} for a part; empty when it has no .rels. */
export function readRelationships(zip: ZipReader, part: string): Map<string, { target: string; type: string }> {
  const dir = part.split('/').slice(0, -1).join('/');
  const file = part.split('/').pop()!;
  const relsPath = `${dir ? dir + '/' : ''}_rels/${file}.rels`;
  const out = new Map<string, { target: string; type: string }>();
  const xml = zip.readText(relsPath);
  if (!xml) return out;
  for (const rel of findAll(parseXml(xml, relsPath), 'Relationship')) {
    const id = attr(rel, 'Id');
    const target = attr(rel, 'Target');
    if (!id || !target || attr(rel, 'TargetMode') === 'External') continue;
    out.set(id, { target: resolveTarget(part, target), type: attr(rel, 'Type') ?? '' });
  }
  return out;
}
