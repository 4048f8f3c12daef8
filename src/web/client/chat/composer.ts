/**
 * The composer: the message box (Enter sends, Shift+Enter breaks the line),
 * Send and Stop, and attachments. Files come from the picker or are dropped
 * on the composer; each is uploaded at once (POST /api/beta/files/upload) and
 * listed with its name (as text) and a remove button; an upload that fails
 * says why. `takeFiles` waits for the uploads and hands over the files that
 * arrived.
 */
import { uploadFile, type FileRef } from './api.ts';
import { button, el, tr } from './text.ts';

export interface ComposerElements {
  form: HTMLFormElement;
  prompt: HTMLTextAreaElement;
  send: HTMLButtonElement;
  stop: HTMLButtonElement;
  attach: HTMLButtonElement;
  file: HTMLInputElement;
  attachments: HTMLUListElement;
}

interface Pending {
  item: HTMLLIElement;
  upload: Promise<FileRef | undefined>;
}

export class Composer {
  private pending: Pending[] = [];

  constructor(
    private readonly els: ComposerElements,
    private readonly maxFileBytes: number,
    on: { submit(text: string): void; stop(): void },
  ) {
    const { form, prompt, stop, attach, file } = els;
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      if (!this.busy && prompt.value.trim() !== '') on.submit(prompt.value);
    });
    prompt.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
        e.preventDefault();
        form.requestSubmit();
      }
    });
    stop.addEventListener('click', () => on.stop());
    attach.addEventListener('click', () => file.click());
    file.addEventListener('change', () => {
      this.add([...(file.files ?? [])]);
      file.value = '';
    });
    form.addEventListener('dragover', (e) => {
      if (!e.dataTransfer?.types.includes('Files')) return;
      e.preventDefault();
      form.classList.add('dropping');
    });
    form.addEventListener('dragleave', () => form.classList.remove('dropping'));
    form.addEventListener('drop', (e) => {
      form.classList.remove('dropping');
      if (!e.dataTransfer?.files.length) return;
      e.preventDefault();
      this.add([...e.dataTransfer.files]);
    });
  }

  private busy = false;

  /** While an answer streams: Stop instead of Send. */
  setBusy(busy: boolean): void {
    this.busy = busy;
    const hadFocus = document.activeElement === this.els.send || document.activeElement === this.els.stop;
    this.els.send.hidden = busy;
    this.els.stop.hidden = !busy;
    if (hadFocus) (busy ? this.els.stop : this.els.send).focus();
  }

  clear(): void {
    this.els.prompt.value = '';
  }

  focus(): void {
    this.els.prompt.focus();
  }

  /** Remove every attachment not sent yet. */
  reset(): void {
    this.pending = [];
    this.els.attachments.replaceChildren();
  }

  /** The uploaded files of the attachments (after waiting for their uploads); the list is emptied. */
  async takeFiles(): Promise<FileRef[]> {
    const pending = this.pending;
    const files = (await Promise.all(pending.map((p) => p.upload))).filter((f): f is FileRef => f !== undefined);
    this.pending = this.pending.filter((p) => !pending.includes(p));
    for (const p of pending) p.item.remove();
    return files;
  }

  private add(files: File[]): void {
    for (const file of files) {
      const item = el('li', 'chat-attachment');
      const name = el('span', 'chat-attachment-name', file.name);
      const state = el('span', 'chat-attachment-state', tr('chat.uploading'));
      const entry: Pending = { item, upload: Promise.resolve(undefined) };
      const remove = button('×', 'chat-attachment-remove', tr('chat.removeFile', { name: file.name }));
      remove.addEventListener('click', () => {
        this.pending = this.pending.filter((p) => p !== entry);
        item.remove();
        this.focus();
      });
      item.append(name, state, remove);
      this.els.attachments.append(item);
      const failed = (reason: string) => {
        item.classList.add('failed');
        state.textContent = tr('chat.uploadFailed', { name: file.name, reason });
        state.setAttribute('role', 'alert');
        return undefined;
      };
      entry.upload =
        file.size > this.maxFileBytes
          ? Promise.resolve(failed(`> ${this.maxFileBytes} bytes`))
          : uploadFile(file).then(
              (ref) => {
                state.textContent = '';
                item.classList.add('ready');
                return ref;
              },
              (err: Error) => failed(err.message),
            );
      this.pending.push(entry);
    }
  }
}
