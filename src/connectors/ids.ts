/**
 * Ids of connectors and of the documents they push. A document id is derived
 * from the item key alone (the first 128 bits of its SHA-256, in hex), so it
 * is stable across runs, valid under the Indexing API's id rule whatever the
 * key holds (paths with spaces, URLs), and the same key always names the same
 * document. Connector ids are `conn_` and 24 random hex digits.
 */
import { createHash } from 'node:crypto';

export const CONNECTOR_ID = /^conn_[0-9a-f]{24}$/;

export function newConnectorId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `conn_${Buffer.from(bytes).toString('hex')}`;
}

/** The document id of an item key. */
export function documentIdOf(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 32);
}
