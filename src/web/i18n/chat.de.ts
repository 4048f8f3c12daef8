/** German messages of the chat page; the same keys as chat.en.ts. */
import type { chatEn } from './chat.en.ts';
import type { Translation } from './en.ts';

export const chatDe: Translation<typeof chatEn> = {
  'chat.title': 'Chat',
};
