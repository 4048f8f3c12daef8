/**
 * The sources panel: opened by a citation chip (or an answer's Sources
 * button), it lists the answer's citations in order, the chosen one marked
 * and focused. A title links to the document only when its address (`url`,
 * else `path_preview`) is http(s); everything else is shown as text. Escape
 * or the close button closes it and gives the focus back to the chip.
 */
import type { Citation } from './api.ts';
import { el, tr } from './text.ts';

export function webHref(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    const u = new URL(value);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : undefined;
  } catch {
    return undefined;
  }
}

let datasourceNames: Record<string, string> = {};

/** Display names of datasources by name (from the page data). */
export function setDatasourceNames(names: Record<string, string>): void {
  datasourceNames = names;
}

function sourceLabel(datasource: string): string {
  if (datasource === 'file') return tr('chat.sourceFile');
  if (datasource === 'web') return tr('chat.sourceWeb');
  return Object.hasOwn(datasourceNames, datasource) ? datasourceNames[datasource] : datasource;
}

export class SourcesPanel {
  private opener: HTMLElement | undefined;

  constructor(
    private readonly root: HTMLElement,
    private readonly list: HTMLOListElement,
    close: HTMLButtonElement,
  ) {
    close.addEventListener('click', () => this.close());
    root.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') this.close();
    });
  }

  /** Show `citations` (undefined: the answer is still streaming) with number `n` marked. */
  show(citations: Citation[] | undefined, n: number | undefined, opener: HTMLElement): void {
    this.opener = opener;
    const items: HTMLElement[] = [];
    if (citations === undefined) items.push(el('li', 'hint', tr('chat.sourcesPending')));
    else if (citations.length === 0) items.push(el('li', 'hint', tr('chat.noSources')));
    let focus: HTMLElement | undefined;
    for (const c of citations ?? []) {
      const li = el('li', 'chat-source');
      li.value = c.number;
      const href = webHref(c.url) ?? webHref(c.path_preview);
      const title = href ? el('a', 'chat-source-title', c.title || href) : el('span', 'chat-source-title', c.title);
      if (href) {
        (title as HTMLAnchorElement).href = href;
        (title as HTMLAnchorElement).rel = 'noopener noreferrer';
        (title as HTMLAnchorElement).target = '_blank';
      }
      li.append(title, el('span', 'chat-source-meta', sourceLabel(c.datasource)));
      if (c.path_preview && c.path_preview !== href) li.append(el('span', 'chat-source-path', c.path_preview));
      if (c.number === n) {
        li.classList.add('current');
        li.setAttribute('aria-current', 'true');
        if (href) focus = title;
      }
      items.push(li);
    }
    this.list.replaceChildren(...items);
    this.root.hidden = false;
    (focus ?? this.root).focus();
  }

  close(): void {
    if (this.root.hidden) return;
    this.root.hidden = true;
    this.opener?.focus();
    this.opener = undefined;
  }
}
