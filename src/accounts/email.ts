/**
 * Syntax of account (login) emails, as Pydantic's email validation (the `email-validator` package)
 * checks it: a dot-atom before the @-sign of RFC 5322 characters (letters, digits and
 * ``!#$%&'*+-/=?^_`{|}~``) or any non-ASCII letter, number, mark, punctuation or symbol
 * (internationalized addresses, RFC 6531), at most 64 characters; a domain name after it of letters
 * (also non-ASCII), digits and hyphens in labels of at most 63 characters, with at least one period.
 * Quoted local parts and IP-address literals are refused, as there.
 *
 * `emailProblem` returns that package's reason for the first rule broken (the text of the 422
 * `value is not a valid email address: <reason>`), or undefined for a valid address. Pure.
 */

const ATEXT = /^[a-zA-Z0-9_!#$%&'*+\-/=?^`{|}~]$/;
/** Non-ASCII characters allowed in a local part or a domain: letters, marks, numbers, punctuation, symbols. */
const INTL = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;
const HOSTNAME = /^[a-zA-Z0-9-]$/;
const MAX_LOCAL = 64;
const MAX_LABEL = 63;
const MAX_DOMAIN = 253;

/** Names of the characters the reasons show by name (others: `'c'` when printable, else `U+XXXX`). */
const NAMES: Record<string, string> = { ' ': 'SPACE', '\u00a0': 'NO-BREAK SPACE' };

function display(c: string): string {
  if (c === '\\') return '"\\"';
  if (NAMES[c]) return NAMES[c];
  if (/^[\p{L}\p{N}\p{P}\p{S}]$/u.test(c)) return `'${c}'`;
  return `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function badCharacters(text: string, allowed: (c: string) => boolean): string | undefined {
  const bad = [...new Set([...text].filter((c) => !allowed(c)))].sort();
  return bad.length > 0 ? bad.map(display).join(', ') : undefined;
}

/** Periods (and for a domain, hyphens) at the ends or doubled. */
function dotAtomProblem(text: string, start: string, end: string, hostname: boolean): string | undefined {
  if (text.endsWith('.')) return end.replace('{}', 'period');
  if (text.startsWith('.')) return start.replace('{}', 'period');
  if (text.includes('..')) return 'An email address cannot have two periods in a row.';
  if (!hostname) return undefined;
  if (text.endsWith('-')) return end.replace('{}', 'hyphen');
  if (text.startsWith('-')) return start.replace('{}', 'hyphen');
  if (text.includes('.-') || text.includes('-.'))
    return 'An email address cannot have a period and a hyphen next to each other.';
  return undefined;
}

function localPartProblem(local: string): string | undefined {
  const length = [...local].length;
  if (length > MAX_LOCAL)
    return `The email address is too long before the @-sign (${plural(length - MAX_LOCAL, 'character')} too many).`;
  const bad = badCharacters(local, (c) => c === '.' || ATEXT.test(c) || (c > '\u007f' && INTL.test(c)));
  if (bad) return `The email address contains invalid characters before the @-sign: ${bad}.`;
  return dotAtomProblem(
    local,
    'An email address cannot start with a {}.',
    'An email address cannot have a {} immediately before the @-sign.',
    false,
  );
}

function domainProblem(domain: string): string | undefined {
  const bad = badCharacters(domain, (c) => c === '.' || HOSTNAME.test(c) || (c > '\u007f' && INTL.test(c)));
  if (bad) return `The part after the @-sign contains invalid characters: ${bad}.`;
  const dots = dotAtomProblem(
    domain,
    'An email address cannot have a {} immediately after the @-sign.',
    'An email address cannot end with a {}.',
    true,
  );
  if (dots) return dots;
  if (domain.length > MAX_DOMAIN) return 'The email address is too long after the @-sign.';
  for (const label of domain.split('.')) {
    const length = [...label].length;
    if (length > MAX_LABEL)
      return `After the @-sign, periods cannot be separated by so many characters (${plural(length - MAX_LABEL, 'character')} too many).`;
  }
  if (!domain.includes('.')) return 'The part after the @-sign is not valid. It should have a period.';
  if (!/\p{L}$/u.test(domain))
    return 'The part after the @-sign is not valid. It is not within a valid top-level domain.';
  return undefined;
}

/** Why `email` is not a valid login email (email-validator's wording), or undefined when it is. */
export function emailProblem(email: string): string | undefined {
  if (email === '') return 'The email address is empty.';
  const at = email.lastIndexOf('@');
  if (at < 0) return 'An email address must have an @-sign.';
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  if (local === '') return 'There must be something before the @-sign.';
  if (domain === '') return 'There must be something after the @-sign.';
  return localPartProblem(local) ?? domainProblem(domain);
}
