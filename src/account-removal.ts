/**
 * Deleting an account with everything the service keeps for it: the
 * accounts domain revokes its keys and ends its sessions (deleteAccount);
 * then its saved conversations and its search-analytics history are erased
 * from the disk, as the person would expect when they leave the company.
 *
 * The account is deleted first: a crash before the erase leaves files that
 * no one can reach (their owner no longer exists), never an account whose
 * history has silently gone.
 */
import { deleteAccount, findAccount, type AccountsDeps, type Actor } from './accounts/accounts.ts';
import type { SearchAnalytics } from './analytics/analytics.ts';
import type { ConversationStore } from './conversations/store.ts';
import type { Logger } from './log.ts';

export interface AccountRemovalDeps extends AccountsDeps {
  log: Logger;
  conversations?: ConversationStore;
  analytics?: SearchAnalytics;
}

export interface AccountRemoval {
  email: string;
  revoked_keys: number;
  erased_conversations: number;
  erased_analytics_records: number;
}

/** Delete the account (403/404 as deleteAccount), then erase its conversations and analytics history. */
export async function removeAccount(deps: AccountRemovalDeps, email: string, actor: Actor): Promise<AccountRemoval> {
  const accountId = findAccount(deps, email)?.id;
  const deleted = await deleteAccount(deps, email, actor);
  const erased_conversations = accountId ? ((await deps.conversations?.eraseAccount(accountId)) ?? 0) : 0;
  const erased_analytics_records = accountId ? ((await deps.analytics?.deleteHistory(accountId)) ?? 0) : 0;
  deps.log.info('account removed', { accountId, erased_conversations, erased_analytics_records });
  return { ...deleted, erased_conversations, erased_analytics_records };
}
