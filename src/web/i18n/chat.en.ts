/** English messages of the chat page (keys `chat.*`). */
export const chatEn = {
  'chat.title': 'Chat',
} as const;
