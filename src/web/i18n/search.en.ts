/** English messages of the search page (keys `search.*`). */
export const searchEn = {
  'search.label': 'Search',
} as const;
