/**
 * HTML character references, decoded with the complete HTML5 table (the
 * `entities` package: every named reference of the WHATWG list, including the
 * legacy ones written without a semicolon, and numeric references with the
 * spec's replacements, e.g. `&#x80;` is `€` and `&#0;` is U+FFFD). Unknown
 * names are left as written. In attribute values a legacy reference without
 * its semicolon before `=` or an alphanumeric stays as written, as browsers do
 * (`?a=1&copy=2` keeps its `&copy`).
 */
import { decodeHTML, decodeHTMLAttribute } from 'entities/decode';

/** Decodes character references in text. */
export function decodeEntities(s: string): string {
  return s.includes('&') ? decodeHTML(s) : s;
}

/** Decodes character references in an attribute value. */
export function decodeAttributeEntities(s: string): string {
  return s.includes('&') ? decodeHTMLAttribute(s) : s;
}
