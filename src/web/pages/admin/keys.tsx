/**
 * A key's row on the dashboard (personal keys on an account's page, the key of
 * each service account): when it was made, a form for its expiry (`PUT
 * /api/admin/keys/{id}/expiry`, UTC, empty for never) and one that revokes it
 * (`DELETE /api/admin/keys/{id}`); a revoked key shows when.
 */
import type { KeyView } from '../../../accounts/accounts.ts';
import { t, type Lang } from '../../i18n/i18n.ts';
import { localInput, seg, when } from './format.ts';
import { ApiForm, Cell, Submit } from './forms.tsx';

/** One key's row: its dates, a form for its expiry and one to revoke it. */
export function KeyRow({ lang, k, name, locked }: { lang: Lang; k: KeyView; name: string; locked?: string }) {
  const head = keyHead(lang);
  const revoked = k.revoked_at !== null;
  return (
    <tr>
      <Cell label={head[0]}>
        <code>{k.id}</code>
      </Cell>
      <Cell label={head[1]}>{when(lang, k.created_at)}</Cell>
      <Cell label={head[2]}>
        {revoked ? (
          when(lang, k.expires_at)
        ) : (
          <ApiForm
            lang={lang}
            method="PUT"
            path={`/api/admin/keys/${seg(k.id)}/expiry`}
            label={t(lang, 'admin.key.expiryOf', { id: k.id })}
            done={t(lang, 'admin.saved')}
            disabledReason={locked}
            class="tiny"
          >
            <label class="visually-hidden" for={`exp-${k.id}`}>
              {t(lang, 'admin.key.expiryOf', { id: k.id })}
            </label>
            <input
              id={`exp-${k.id}`}
              name="expires_at"
              type="datetime-local"
              value={localInput(k.expires_at)}
              data-kind="datetime"
            />
            <button type="submit">{t(lang, 'admin.save')}</button>
          </ApiForm>
        )}
      </Cell>
      <Cell label={head[3]}>
        {revoked ? (
          t(lang, 'admin.key.revokedAt', { at: when(lang, k.revoked_at) })
        ) : (
          <ApiForm
            lang={lang}
            method="DELETE"
            path={`/api/admin/keys/${seg(k.id)}`}
            label={t(lang, 'admin.key.revokeOf', { id: k.id, name })}
            confirm={t(lang, 'admin.key.confirm', { name })}
            done={t(lang, 'admin.key.revoked')}
            disabledReason={locked}
            class="tiny"
          >
            <Submit
              danger
              label={t(lang, 'admin.key.revoke')}
              ariaLabel={t(lang, 'admin.key.revokeOf', { id: k.id, name })}
            />
          </ApiForm>
        )}
      </Cell>
    </tr>
  );
}

export const keyHead = (lang: Lang) =>
  ['id', 'created', 'expires', 'state'].map((k) => t(lang, `admin.key.col.${k}` as 'admin.key.col.id'));
