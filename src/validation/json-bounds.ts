/**
 * Bounds on client JSON values that the service keeps or echoes: nesting
 * depth and size. Every walk here stops at its depth limit, so no value,
 * however deeply nested, can overflow the stack (JSON.parse accepts far deeper
 * values than JSON.stringify and structuredClone can handle).
 *
 * - `jsonDepthExceeds` / `jsonSizeExceeds`: checks for values that are stored
 *   (the open fields of object definitions, README "Limits").
 * - `boundedCopy`: a copy safe to serialize, with too deep, too long or too
 *   large parts replaced by a short placeholder string (422 `input` echoes,
 *   views of values stored before the limits existed).
 */

/** Nesting depth limit of kept JSON values (objects and arrays count one level each). */
export const MAX_JSON_DEPTH = 64;

const isContainer = (x: unknown): x is object => typeof x === 'object' && x !== null;

/** Whether `value` nests objects/arrays more than `maxDepth` levels deep (a scalar has depth 0). */
export function jsonDepthExceeds(value: unknown, maxDepth: number = MAX_JSON_DEPTH): boolean {
  if (!isContainer(value)) return false;
  if (maxDepth <= 0) return true;
  for (const child of Object.values(value)) if (jsonDepthExceeds(child, maxDepth - 1)) return true;
  return false;
}

/**
 * Whether the JSON text of `value` is longer than `maxChars` characters. Call only on values
 * within the depth limit (the walk recurses); stops counting as soon as the limit is passed.
 */
export function jsonSizeExceeds(value: unknown, maxChars: number): boolean {
  let left = maxChars;
  const visit = (x: unknown): boolean => {
    if (isContainer(x)) {
      const entries = Object.entries(x);
      left -= 2 + Math.max(0, entries.length - 1); // brackets and commas
      for (const [k, child] of entries) {
        if (!Array.isArray(x)) left -= k.length + 3; // "key":
        if (left < 0 || visit(child)) return true;
      }
    } else {
      // A string's escapes are counted only when it could fit at all (the stringify stays within the budget).
      left -=
        typeof x === 'string' ? (x.length + 2 > left ? x.length + 2 : JSON.stringify(x).length) : String(x).length;
    }
    return left < 0;
  };
  return visit(value);
}

export interface CopyBounds {
  /** Containers nested deeper than this are replaced (default 32). */
  maxDepth?: number;
  /** Strings longer than this are replaced (default 16,384 characters). */
  maxStringChars?: number;
  /** Values (scalars and containers) copied at most; later ones are replaced (default 10,000). */
  maxValues?: number;
  /** String characters copied at most over the whole value (default 262,144). */
  maxChars?: number;
}

/**
 * A copy of `value` that JSON.stringify can always write and that stays small: parts beyond the
 * bounds become a placeholder such as `"<array nested deeper than 32 levels, not echoed>"`. Values within the
 * bounds are returned as they are (scalars) or copied unchanged (containers).
 */
export function boundedCopy(value: unknown, bounds: CopyBounds = {}): unknown {
  if (!isContainer(value) && (typeof value !== 'string' || value.length <= (bounds.maxStringChars ?? 16_384)))
    return value;
  const maxDepth = bounds.maxDepth ?? 32;
  const maxString = bounds.maxStringChars ?? 16_384;
  let values = bounds.maxValues ?? 10_000;
  let chars = bounds.maxChars ?? 262_144;
  const describe = (x: object) =>
    Array.isArray(x) ? `array of ${x.length} items` : `object with ${Object.keys(x).length} keys`;
  const copy = (x: unknown, depth: number): unknown => {
    values--;
    if (typeof x === 'string') {
      if (x.length > maxString || x.length > chars) return `<string of ${x.length} characters, not echoed>`;
      chars -= x.length;
      return x;
    }
    if (!isContainer(x)) return x;
    if (depth >= maxDepth)
      return `<${Array.isArray(x) ? 'array' : 'object'} nested deeper than ${maxDepth} levels, not echoed>`;
    if (Array.isArray(x)) {
      if (x.length > values) return `<${describe(x)}, not echoed>`;
      return x.map((child) => copy(child, depth + 1));
    }
    const keys = Object.keys(x);
    let keyChars = 0;
    for (const k of keys) keyChars += k.length;
    if (keys.length > values || keyChars > chars) return `<${describe(x)}, not echoed>`;
    chars -= keyChars;
    // fromEntries defines own properties (a "__proto__" key stays a key).
    return Object.fromEntries(keys.map((k) => [k, copy((x as Record<string, unknown>)[k], depth + 1)]));
  };
  return copy(value, 0);
}
