/**
 * Binaries read into blobs while a push body arrived (push-body.ts), and the
 * stand-in strings that take their place in the parsed body.
 *
 * A stored binary's `binary_base64` is a random, valid Base64 string of 32
 * characters (its placeholder), registered here while its request runs: the
 * document schema reads a registered one as the binary it stands for (valid, or
 * over the size limit), so validation gives the verdicts and messages a string
 * would. A binary that is not Base64 stands as the text its 422 item echoes
 * (`<string of N characters, not echoed>`), which fails the Base64 check as the
 * string would. Nobody can send a registered placeholder: it is random, and known
 * only to the request that made it.
 */
import type { BlobRef, BlobStore } from './blobs.ts';

/** The message of the decoded-size check (schema.ts and the early refusal in push-body.ts). */
export const tooLargeMessage = (maxBinaryBytes: number) =>
  `decoded binary_base64 exceeds the limit of ${maxBinaryBytes} bytes`;

const registered = new Map<string, SpooledBinary>();

export interface SpooledInit {
  placeholder: string;
  /** Index of its item in the bulk form; -1 in the single form. */
  item: number;
  /** Length of the string it stands for (UTF-16 units). */
  chars: number;
  valid: boolean;
  tooLarge: boolean;
  blob: BlobRef | null;
  store: BlobStore;
}

export class SpooledBinary {
  readonly placeholder: string;
  readonly item: number;
  readonly chars: number;
  readonly valid: boolean;
  readonly tooLarge: boolean;
  private blobRef: BlobRef | null;
  private kept = false;
  private readonly store: BlobStore;

  constructor(init: SpooledInit) {
    this.placeholder = init.placeholder;
    this.item = init.item;
    this.chars = init.chars;
    this.valid = init.valid;
    this.tooLarge = init.tooLarge;
    this.blobRef = init.blob;
    this.store = init.store;
    registered.set(this.placeholder, this);
  }

  /** The stored binary (null when the string was not Base64 or too large). */
  get blob(): BlobRef | null {
    return this.blobRef;
  }

  /** What stands in the parsed body for the string. */
  get standIn(): string {
    return this.valid ? this.placeholder : `<string of ${this.chars} characters, not echoed>`;
  }

  /** A queued document now owns the blob (discard leaves it). */
  keep(): BlobRef {
    this.kept = true;
    return this.blobRef!;
  }

  /** Ends the registration and removes the blob unless a queued document keeps it. */
  async discard(): Promise<void> {
    registered.delete(this.placeholder);
    const blob = this.blobRef;
    this.blobRef = null;
    if (blob && !this.kept) await this.store.remove(blob.name);
  }
}

/** The stored binary a `binary_base64` value stands for, if it is a registered placeholder. */
export function spooledFor(value: unknown): SpooledBinary | undefined {
  return typeof value === 'string' && value.length === 32 ? registered.get(value) : undefined;
}

/** Whether a `binary_base64` value stands for a binary over the size limit. */
export const standsForTooLarge = (value: string) => spooledFor(value)?.tooLarge === true;
