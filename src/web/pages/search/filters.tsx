/**
 * The query box and the filters, one GET form (the whole state goes into
 * the address): data source (the spec's categories and the viewer's
 * datasources by display name), file type, and the modification date (a
 * preset, or a custom range of two days shown when "custom" is chosen, by
 * CSS alone). Without scripts the Apply button submits the filters; the
 * page's module applies them on change (client/search.ts).
 */
import { t, type Lang } from '../../i18n/i18n.ts';
import { categoryChoices, fileTypeChoices, presetChoices, type Choice, type SourceNames } from './labels.ts';
import type { SearchState } from './state.ts';

function Options(props: { choices: Choice[]; selected: string }) {
  return (
    <>
      {props.choices.map((c) => (
        <option value={c.value} selected={c.value === props.selected}>
          {c.label}
        </option>
      ))}
    </>
  );
}

function Field(props: { id: string; label: string; children: unknown }) {
  return (
    <div class="filter">
      <label for={props.id}>{props.label}</label>
      {props.children}
    </div>
  );
}

export function QueryBox(props: { lang: Lang; q: string }) {
  const { lang } = props;
  return (
    <div class="search-box">
      <label for="q" class="visually-hidden">
        {t(lang, 'search.query')}
      </label>
      <input
        id="q"
        name="q"
        type="search"
        autofocus
        autocomplete="off"
        enterkeyhint="search"
        maxlength={8192}
        aria-describedby="q-hint"
        value={props.q}
      />
      <button type="submit" class="primary">
        {t(lang, 'search.submit')}
      </button>
      <p id="q-hint" class="visually-hidden">
        {t(lang, 'search.shortcut')}
      </p>
    </div>
  );
}

export function Filters(props: { lang: Lang; state: SearchState; names: SourceNames }) {
  const { lang, state } = props;
  const custom = state.date === 'custom';
  return (
    <fieldset class="filters" id="filters">
      <legend class="visually-hidden">{t(lang, 'search.filters')}</legend>
      <Field id="f-ds" label={t(lang, 'search.source')}>
        <select id="f-ds" name="ds">
          <option value="">{t(lang, 'search.sourceAll')}</option>
          {props.names.datasources.length > 0 && (
            <optgroup label={t(lang, 'search.sourceYours')}>
              <Options choices={props.names.datasources} selected={state.ds} />
            </optgroup>
          )}
          <optgroup label={t(lang, 'search.sourceCategories')}>
            <Options choices={categoryChoices(lang)} selected={state.ds} />
          </optgroup>
        </select>
      </Field>
      <Field id="f-type" label={t(lang, 'search.type')}>
        <select id="f-type" name="type">
          <option value="">{t(lang, 'search.typeAll')}</option>
          <Options choices={fileTypeChoices(lang)} selected={state.type} />
        </select>
      </Field>
      <Field id="f-date" label={t(lang, 'search.date')}>
        <select id="f-date" name="date">
          <option value="">{t(lang, 'search.dateAll')}</option>
          <Options choices={presetChoices(lang)} selected={state.date} />
          <option value="custom" selected={custom}>
            {t(lang, 'search.dateCustom')}
          </option>
        </select>
      </Field>
      <div class="filter-range" id="f-range">
        <Field id="f-from" label={t(lang, 'search.from')}>
          <input id="f-from" name="from" type="date" value={custom ? state.from : ''} />
        </Field>
        <Field id="f-to" label={t(lang, 'search.to')}>
          <input id="f-to" name="to" type="date" value={custom ? state.to : ''} />
        </Field>
      </div>
      <button type="submit" class="apply" id="f-apply">
        {t(lang, 'search.apply')}
      </button>
      <p id="filters-hint" class="visually-hidden" hidden>
        {t(lang, 'search.filtersHint')}
      </p>
    </fieldset>
  );
}
