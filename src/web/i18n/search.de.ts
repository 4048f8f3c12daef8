/** German messages of the search page; the same keys as search.en.ts. */
import type { Translation } from './en.ts';
import type { searchEn } from './search.en.ts';

export const searchDe: Translation<typeof searchEn> = {
  'search.label': 'Suche',
};
