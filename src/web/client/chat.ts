/** Browser module of the chat page. */
export {};
