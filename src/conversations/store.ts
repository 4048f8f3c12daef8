/**
 * Saved chat conversations per account, domain side: list, get, create,
 * append messages (or replace the last ones: regenerate), rename, delete.
 * Everything is scoped to the calling account: another account's
 * conversation id is simply not found (404).
 *
 * Storage: one AccountLog per account under `DATA_DIR/conversations/`
 * (account-log.ts), opened on first use and kept open for the
 * MAX_OPEN_ACCOUNTS most recently used accounts. The operations of one
 * account run one after another (a promise chain), so limits are checked
 * against the state the write lands on. Every change is fsynced before it is
 * answered. After a delete or a replacement the file is compacted when more
 * than half of it (and at least COMPACT_MIN_DEAD_BYTES) is dead records.
 */
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { conflict, notFound } from '../errors.ts';
import type { Logger } from '../log.ts';
import { StorageError } from '../storage/record-log.ts';
import { AccountLog, type ConversationRecord } from './account-log.ts';
import {
  CONVERSATION_ID,
  MAX_ACCOUNT_BYTES,
  MAX_CONVERSATIONS,
  MAX_MESSAGES,
  type AppendMessagesInput,
  type Conversation,
  type ConversationSummary,
  type CreateConversationInput,
  type MessageInput,
  type StoredMessage,
} from './schema.ts';

const ACCOUNT_ID = /^[A-Za-z0-9_-]{1,128}$/;
export const COMPACT_MIN_DEAD_BYTES = 256 * 1024;
const MAX_OPEN_ACCOUNTS = 64;

export interface ConversationStoreOptions {
  /** Directory of the account files (DATA_DIR/conversations). */
  dir: string;
  log: Logger;
  now: () => number;
  /** Live record bytes per account (default MAX_ACCOUNT_BYTES). */
  maxAccountBytes?: number;
  /** Dead bytes before a compaction is considered (default COMPACT_MIN_DEAD_BYTES). */
  compactMinDeadBytes?: number;
}

interface Slot {
  log: Promise<AccountLog>;
  /** The last queued operation; the next one runs after it. */
  tail: Promise<unknown>;
}

export const conversationsDir = (dataDir: string): string => join(dataDir, 'conversations');

export class ConversationStore {
  private readonly slots = new Map<string, Slot>();
  /** Accounts whose evicted log is still closing. */
  private readonly closing = new Map<string, Promise<void>>();

  constructor(private readonly opts: ConversationStoreOptions) {}

  list(accountId: string): Promise<ConversationSummary[]> {
    return this.run(accountId, async (log) => log.list());
  }

  get(accountId: string, id: string): Promise<Conversation> {
    return this.run(accountId, async (log) => (await log.read(id)) ?? missing(id));
  }

  /** The conversation's summary, or undefined (the chat page checks an address with it). */
  find(accountId: string, id: string): Promise<ConversationSummary | undefined> {
    return this.run(accountId, async (log) => log.summary(id));
  }

  create(accountId: string, input: Partial<CreateConversationInput>): Promise<Conversation> {
    return this.run(accountId, async (log) => {
      if (log.count >= MAX_CONVERSATIONS)
        throw conflict(
          `An account keeps at most ${MAX_CONVERSATIONS} conversations; delete one before starting another`,
        );
      const at = this.iso();
      const id = newConversationId();
      const title = input.title ?? '';
      const messages = stamp(input.messages ?? [], at);
      await this.write(log, { type: 'created', id, title, at, messages });
      return { id, title, created_at: at, updated_at: at, message_count: messages.length, messages };
    });
  }

  append(accountId: string, id: string, input: AppendMessagesInput): Promise<ConversationSummary> {
    return this.run(accountId, async (log) => {
      const current = log.summary(id) ?? missing(id);
      const from = input.replace_from ?? current.message_count;
      if (from > current.message_count)
        throw conflict(`replace_from is ${from}, but the conversation has ${current.message_count} messages`);
      if (from + input.messages.length > MAX_MESSAGES)
        throw conflict(`A conversation keeps at most ${MAX_MESSAGES} messages; start a new one`);
      const at = this.iso();
      const record: ConversationRecord = { type: 'messages', id, from, messages: stamp(input.messages, at), at };
      await this.write(log, record);
      if (from < current.message_count) await this.maybeCompact(accountId, log);
      return log.summary(id)!;
    });
  }

  rename(accountId: string, id: string, title: string): Promise<ConversationSummary> {
    return this.run(accountId, async (log) => {
      if (!log.summary(id)) missing(id);
      await this.write(log, { type: 'renamed', id, title, at: this.iso() });
      return log.summary(id)!;
    });
  }

  remove(accountId: string, id: string): Promise<{ id: string; deleted: true }> {
    return this.run(accountId, async (log) => {
      if (!log.summary(id)) missing(id);
      await log.append({ type: 'deleted', id, at: this.iso() });
      await this.maybeCompact(accountId, log);
      return { id, deleted: true as const };
    });
  }

  /**
   * Erase every conversation of an account, its file included (the account
   * is being deleted); answers how many conversations there were. An
   * operation queued behind the erase opens a new, empty file.
   */
  eraseAccount(accountId: string): Promise<number> {
    return this.run(accountId, async (log) => {
      const count = log.list().length;
      this.slots.delete(accountId);
      await log.close();
      await rm(log.path, { force: true });
      return count;
    });
  }

  /** Wait for every queued operation, then close the files. */
  async close(): Promise<void> {
    const slots = [...this.slots.values()];
    this.slots.clear();
    for (const slot of slots) {
      await slot.tail.catch(() => {});
      await (await slot.log.catch(() => undefined))?.close();
    }
    await Promise.all(this.closing.values());
  }

  /** Append a record that adds data, refused (409) when the account's live records would pass the byte limit. */
  private async write(log: AccountLog, record: ConversationRecord): Promise<void> {
    const limit = this.opts.maxAccountBytes ?? MAX_ACCOUNT_BYTES;
    if (log.liveBytes() + AccountLog.recordBytes(record) > limit)
      throw conflict(`The saved conversations of an account may take at most ${limit} bytes; delete some first`);
    await log.append(record);
  }

  private async maybeCompact(accountId: string, log: AccountLog): Promise<void> {
    if (!log.wantsCompaction(this.opts.compactMinDeadBytes ?? COMPACT_MIN_DEAD_BYTES)) return;
    try {
      await log.compact();
    } catch (err) {
      // The change itself is durable; the file is opened afresh on the next use.
      this.slots.delete(accountId);
      this.opts.log.error('conversation compaction failed', { file: log.path, error: String(err) });
    }
  }

  private iso(): string {
    return new Date(this.opts.now()).toISOString();
  }

  /** Run `op` on the account's log after the account's earlier operations. */
  private run<T>(accountId: string, op: (log: AccountLog) => Promise<T>): Promise<T> {
    if (!ACCOUNT_ID.test(accountId)) throw new Error('invalid account id');
    let slot = this.slots.get(accountId);
    if (slot) {
      this.slots.delete(accountId);
    } else {
      this.evictIdle();
      // An evicted log of the same account is closed before the file is opened again.
      const prior = this.closing.get(accountId) ?? Promise.resolve();
      const path = join(this.opts.dir, `${accountId}.log`);
      const log = prior
        .then(() => mkdir(this.opts.dir, { recursive: true }))
        .then(() => AccountLog.open(path, this.opts.log));
      slot = { log, tail: log };
    }
    this.slots.set(accountId, slot);
    const current = slot;
    const result = current.tail
      .catch(() => {})
      .then(async () => op(await current.log))
      .catch((err: unknown) => {
        // A failed write fails the file's writer: the next use opens the file afresh (replaying what is durable).
        if (err instanceof StorageError && this.slots.get(accountId) === current) {
          this.slots.delete(accountId);
          void current.log.then((log) => log.close()).catch(() => {});
        }
        throw err;
      });
    current.tail = result;
    // A log that failed to open is not kept: the next use tries again.
    current.log.catch(() => this.slots.get(accountId) === current && this.slots.delete(accountId));
    return result;
  }

  /** Close the least recently used accounts beyond MAX_OPEN_ACCOUNTS once their queued operations are done. */
  private evictIdle(): void {
    while (this.slots.size >= MAX_OPEN_ACCOUNTS) {
      const [accountId, slot] = this.slots.entries().next().value as [string, Slot];
      this.slots.delete(accountId);
      const closing: Promise<void> = slot.tail
        .catch(() => {})
        .then(() => slot.log)
        .then((log) => log.close())
        .catch(() => {})
        .finally(() => {
          if (this.closing.get(accountId) === closing) this.closing.delete(accountId);
        });
      this.closing.set(accountId, closing);
    }
  }
}

function missing(id: string): never {
  throw notFound(`Conversation ${CONVERSATION_ID.test(id) ? id : JSON.stringify(id.slice(0, 100))} does not exist`);
}

function stamp(messages: MessageInput[], at: string): StoredMessage[] {
  return messages.map((m) => ({ ...m, created_at: at }));
}

export function newConversationId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `conv_${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
}
