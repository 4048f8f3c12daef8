/**
 * What the search page shows instead of slugs: the display names of the
 * datasources the viewer is registered on and of their subs (the API's
 * `data_source_sub` values are compound, `{ds}__{sub}` and
 * `{ds}__{sub}__{child}`), read from the control-plane state; and the
 * localized labels of the spec's source categories, search file types and
 * date presets. Only names go out of this module, never documents.
 */
import { compoundSubValue, normalizeEmail } from '../../../controlplane/names.ts';
import type { IndexingState } from '../../../controlplane/state.ts';
import { SEARCH_FILE_TYPES, type SearchFileType as SearchFileTypeValue } from '../../../documents/file-types.ts';
import { DATA_SOURCE_CATEGORIES, DATE_PRESETS } from '../../../search/schemas.ts';
import { t, type Lang } from '../../i18n/i18n.ts';

export interface Choice {
  value: string;
  label: string;
}

export interface SourceNames {
  /** The viewer's datasources, by display name. */
  datasources: Choice[];
  /** Display name of a datasource (the name itself when it has none or is unknown). */
  datasource(name: string): string;
  /** Display name of a compound sub value ('' when the value is empty or unknown). */
  sub(compound: string): string;
}

/** The names of the datasources `email` is registered on (the ones whose documents can be visible). */
export function sourceNames(state: IndexingState, email: string): SourceNames {
  const who = normalizeEmail(email);
  const names = new Map<string, string>();
  const subs = new Map<string, string>();
  for (const [name, ds] of state.datasources) {
    if (!ds.users.has(who)) continue;
    names.set(name, ds.record.display_name.trim() || name);
    for (const sub of ds.record.subs) {
      subs.set(compoundSubValue(name, sub.key, sub.parent_key), sub.name.trim() || sub.key);
    }
  }
  const datasources = [...names]
    .map(([value, label]) => ({ value, label }))
    .sort((a, b) => a.label.localeCompare(b.label) || a.value.localeCompare(b.value));
  return {
    datasources,
    datasource: (name) => names.get(name) ?? name,
    sub: (compound) => subs.get(compound) ?? '',
  };
}

export const categoryChoices = (lang: Lang): Choice[] =>
  DATA_SOURCE_CATEGORIES.map((c) => ({ value: c, label: t(lang, `search.category.${c}`) }));

export const fileTypeChoices = (lang: Lang): Choice[] =>
  SEARCH_FILE_TYPES.map((f) => ({ value: f, label: t(lang, `search.fileType.${f}`) }));

export const presetChoices = (lang: Lang): Choice[] =>
  DATE_PRESETS.map((p) => ({ value: p, label: t(lang, `search.preset.${p}`) }));

/** The localized label of a search file type (the value itself when it is not one of the spec's). */
export function fileTypeLabel(lang: Lang, value: string): string {
  return (SEARCH_FILE_TYPES as readonly string[]).includes(value)
    ? t(lang, `search.fileType.${value as SearchFileTypeValue}`)
    : value;
}
