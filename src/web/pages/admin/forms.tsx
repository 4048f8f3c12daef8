/**
 * The dashboard's building blocks in JSX. `ApiForm` is a form the browser
 * module (client/admin/forms.ts) sends to the public API with the session and
 * the CSRF header: `data-method` and `data-path` say where, the named fields
 * make the JSON body (a dotted name nests: `user.email`; `data-kind` converts:
 * `list` checkboxes collect into an array, `json` parses, `csv` splits on
 * commas, `number` reads a number (null when empty), `datetime` becomes ISO 8601 UTC or null, `optional` leaves an empty
 * field out, `nullable` sends null for it; fields named `_…` are not sent).
 * After success the page reloads with the `done` message, or shows a secret
 * once (`secret`: the answer's field to show), or the answer's message
 * (`result`). The API's refusal is shown in the form's alert, as the API
 * worded it. Every text here is escaped by JSX.
 */
import type { Child } from 'hono/jsx';
import { t, type Lang } from '../../i18n/i18n.ts';

export type FieldKind = 'list' | 'json' | 'csv' | 'number' | 'datetime' | 'optional' | 'nullable' | 'bool';

export interface ApiFormProps {
  lang: Lang;
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  /** Accessible name of the form. */
  label: string;
  /** Message shown after the page reloads on success. */
  done?: string;
  /** Asked (window.confirm) before sending. */
  confirm?: string;
  /** Where to go on success instead of reloading. */
  next?: string;
  /** Show this field of the answer once, with a copy button, instead of reloading. */
  secret?: string;
  /** Show the answer's `message` (and `ok`) in the form instead of reloading. */
  result?: boolean;
  /** Shown with its controls disabled and this reason (the API would refuse it for this viewer). */
  disabledReason?: string;
  class?: string;
  children?: Child;
}

export function ApiForm(props: ApiFormProps) {
  const { lang } = props;
  return (
    <form
      class={`api-form ${props.class ?? ''}`.trim()}
      aria-label={props.label}
      data-method={props.method}
      data-path={props.path}
      data-done={props.done}
      data-confirm={props.confirm}
      data-next={props.next}
      data-secret={props.secret}
      data-result={props.result ? '1' : undefined}
    >
      {props.disabledReason ? (
        <>
          <p class="hint">{props.disabledReason}</p>
          <fieldset class="plain" disabled>
            {props.children}
          </fieldset>
        </>
      ) : (
        props.children
      )}
      <p class="error" role="alert" data-error hidden></p>
      {props.result && <p class="check-result" role="status" data-result-text></p>}
      {props.secret && (
        <div class="secret" data-secret-panel hidden>
          <p>
            <strong>{t(lang, 'admin.secret.once')}</strong>
          </p>
          <code data-secret-value></code>
          <div class="row">
            <button type="button" data-copy>
              {t(lang, 'admin.js.copy')}
            </button>
            <button type="button" class="primary" data-secret-done>
              {t(lang, 'admin.secret.done')}
            </button>
          </div>
        </div>
      )}
    </form>
  );
}

export interface FieldProps {
  id: string;
  label: string;
  name: string;
  type?: string;
  value?: string | number;
  kind?: FieldKind;
  required?: boolean;
  placeholder?: string;
  hint?: string;
  autocomplete?: string;
  /** The datasource deletion's typed confirmation: the field must equal this. */
  mustEqual?: string;
  mismatch?: string;
}

/** A labelled input (with an optional hint tied to it by aria-describedby). */
export function Field(p: FieldProps) {
  const hintId = p.hint ? `${p.id}-hint` : undefined;
  return (
    <div class="field">
      <label for={p.id}>{p.label}</label>
      <input
        id={p.id}
        name={p.name}
        type={p.type ?? 'text'}
        value={p.value === undefined ? undefined : String(p.value)}
        data-kind={p.kind}
        required={p.required}
        placeholder={p.placeholder}
        autocomplete={p.autocomplete ?? 'off'}
        aria-describedby={hintId}
        data-must-equal={p.mustEqual}
        data-mismatch={p.mismatch}
      />
      {p.hint && (
        <p class="hint" id={hintId}>
          {p.hint}
        </p>
      )}
    </div>
  );
}

/** A labelled multi-line field. */
export function TextArea(p: {
  id: string;
  label: string;
  name: string;
  value?: string;
  kind?: FieldKind;
  rows?: number;
  hint?: string;
}) {
  const hintId = p.hint ? `${p.id}-hint` : undefined;
  return (
    <div class="field wide">
      <label for={p.id}>{p.label}</label>
      <textarea id={p.id} name={p.name} rows={p.rows ?? 4} data-kind={p.kind} aria-describedby={hintId}>
        {p.value ?? ''}
      </textarea>
      {p.hint && (
        <p class="hint" id={hintId}>
          {p.hint}
        </p>
      )}
    </div>
  );
}

/** Checkboxes whose checked values make one array field (`data-kind="list"`). */
export function Checkboxes(p: {
  idPrefix: string;
  legend: string;
  name: string;
  /** `disabled`: shown but not changeable (and not sent). */
  options: { value: string; label: string; disabled?: boolean }[];
  checked: readonly string[];
  /** Says why some options are disabled. */
  note?: string;
}) {
  return (
    <fieldset class="checks">
      <legend>{p.legend}</legend>
      {p.note && <p class="hint">{p.note}</p>}
      {p.options.map((o) => (
        <label for={`${p.idPrefix}-${o.value}`}>
          <input
            type="checkbox"
            id={`${p.idPrefix}-${o.value}`}
            name={p.name}
            value={o.value}
            data-kind="list"
            checked={p.checked.includes(o.value)}
            disabled={o.disabled}
          />
          {o.label}
        </label>
      ))}
    </fieldset>
  );
}

export function Hidden(p: { name: string; value: string }) {
  return <input type="hidden" name={p.name} value={p.value} />;
}

/** A button that sends its form. */
export function Submit(p: { label: string; danger?: boolean; ariaLabel?: string }) {
  return (
    <button type="submit" class={p.danger ? 'danger' : 'primary'} aria-label={p.ariaLabel}>
      {p.label}
    </button>
  );
}

/** A table that stacks into labelled rows at phone width (the labels come from `data-label`). */
export function Table(p: { caption: string; head: string[]; children?: Child; captionHidden?: boolean }) {
  return (
    <table class="data">
      <caption class={p.captionHidden ? 'visually-hidden' : undefined}>{p.caption}</caption>
      <thead>
        <tr>
          {p.head.map((h) => (
            <th scope="col">{h}</th>
          ))}
        </tr>
      </thead>
      <tbody>{p.children}</tbody>
    </table>
  );
}

/** A cell with its column's label for the stacked layout. */
export function Cell(p: { label: string; children?: Child; class?: string }) {
  return (
    <td data-label={p.label} class={p.class}>
      {p.children}
    </td>
  );
}
