/**
 * Parser for the classic SMART test-collection format (Cranfield, CISI, ADI):
 * records start with `.I <id>`, fields start with a line `.X` (one letter)
 * and run until the next field or record. CRLF and LF both accepted.
 */
export interface SmartRecord {
  /** The number after `.I`, as written (may have leading zeros). */
  id: string;
  /** Field letter -> text (repeated fields such as `.A` are joined by newlines). */
  fields: Record<string, string>;
}

export function parseSmart(text: string): SmartRecord[] {
  const records: SmartRecord[] = [];
  let current: SmartRecord | null = null;
  let field: string | null = null;
  let lines: string[] = [];
  const flush = (): void => {
    if (current && field) {
      const value = lines.join('\n').trim();
      current.fields[field] = current.fields[field] ? `${current.fields[field]}\n${value}` : value;
    }
    lines = [];
  };
  for (const raw of text.split(/\r?\n/)) {
    const rec = /^\.I\s+(\S+)/.exec(raw);
    if (rec) {
      flush();
      current = { id: rec[1], fields: {} };
      records.push(current);
      field = null;
      continue;
    }
    const f = /^\.([A-Z])\s*$/.exec(raw);
    if (f && current) {
      flush();
      field = f[1];
      continue;
    }
    if (field) lines.push(raw);
  }
  flush();
  return records;
}
