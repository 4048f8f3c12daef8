/**
 * HTML character reference decoding: numeric references and the named references in
 * common use (all Latin-1 names plus typographic and Greek-free punctuation). Unknown
 * names are left as written.
 */

const LATIN1 = (
  'nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 ' +
  'acute micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde Auml Aring AElig ' +
  'Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde Ouml times Oslash Ugrave ' +
  'Uacute Ucirc Uuml Yacute THORN szlig agrave aacute acirc atilde auml aring aelig ccedil egrave eacute ecirc euml igrave ' +
  'iacute icirc iuml eth ntilde ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml yacute thorn yuml'
).split(' ');

const NAMED = new Map<string, string>([
  ['amp', '&'],
  ['lt', '<'],
  ['gt', '>'],
  ['quot', '"'],
  ['apos', "'"],
  ['ndash', '\u2013'],
  ['mdash', '\u2014'],
  ['lsquo', '\u2018'],
  ['rsquo', '\u2019'],
  ['sbquo', '\u201a'],
  ['ldquo', '\u201c'],
  ['rdquo', '\u201d'],
  ['bdquo', '\u201e'],
  ['hellip', '\u2026'],
  ['bull', '\u2022'],
  ['euro', '\u20ac'],
  ['trade', '\u2122'],
  ['lsaquo', '\u2039'],
  ['rsaquo', '\u203a'],
  ['dagger', '\u2020'],
  ['Dagger', '\u2021'],
  ['permil', '\u2030'],
  ['prime', '\u2032'],
  ['Prime', '\u2033'],
  ['OElig', '\u0152'],
  ['oelig', '\u0153'],
  ['Scaron', '\u0160'],
  ['scaron', '\u0161'],
  ['Yuml', '\u0178'],
  ['fnof', '\u0192'],
  ['circ', '\u02c6'],
  ['tilde', '\u02dc'],
  ['ensp', '\u2002'],
  ['emsp', '\u2003'],
  ['thinsp', '\u2009'],
  ['zwnj', '\u200c'],
  ['zwj', '\u200d'],
  ['lrm', '\u200e'],
  ['rlm', '\u200f'],
  ['larr', '\u2190'],
  ['rarr', '\u2192'],
  ['uarr', '\u2191'],
  ['darr', '\u2193'],
  ['harr', '\u2194'],
  ['minus', '\u2212'],
  ['le', '\u2264'],
  ['ge', '\u2265'],
  ['ne', '\u2260'],
  ['infin', '\u221e'],
  ['check', '\u2713'],
]);
LATIN1.forEach((name, i) => NAMED.set(name, String.fromCharCode(160 + i)));

/** Decodes character references in text or attribute values. */
export function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[A-Za-z][A-Za-z0-9]{1,31});?/g, (m, ref: string) => {
    if (ref[0] === '#') {
      const cp = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      if (!cp || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return '\ufffd';
      return String.fromCodePoint(cp);
    }
    return NAMED.get(ref) ?? m;
  });
}
