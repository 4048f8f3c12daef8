/**
 * Server-sent events from a fetch response body: yields the `data:` payload
 * of every event as soon as the blank line ending it has arrived (multi-line
 * data joined with newlines; comments and other fields skipped).
 */
export async function* sseData(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buf = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += decoder.decode(value, { stream: true });
      for (;;) {
        const end = /\r\n\r\n|\n\n|\r\r/.exec(buf);
        if (!end) break;
        const data = dataOf(buf.slice(0, end.index));
        buf = buf.slice(end.index + end[0].length);
        if (data !== undefined) yield data;
      }
    }
    const data = dataOf(buf + decoder.decode());
    if (data !== undefined) yield data;
  } finally {
    reader.releaseLock();
  }
}

function dataOf(event: string): string | undefined {
  const lines: string[] = [];
  for (const line of event.split(/\r\n|\n|\r/)) {
    if (line.startsWith('data:')) lines.push(line.slice(line.startsWith('data: ') ? 6 : 5));
  }
  return lines.length > 0 ? lines.join('\n') : undefined;
}

/** What one event of a streamed completion says. */
export type CompletionEvent =
  | { kind: 'text'; text: string }
  | { kind: 'end'; citations: unknown[]; finishReason: string | null }
  | { kind: 'error'; message: string }
  | { kind: 'done' };

export function completionEvent(data: string): CompletionEvent | undefined {
  if (data === '[DONE]') return { kind: 'done' };
  let chunk: {
    error?: { message?: string };
    choices?: { delta?: { content?: string }; finish_reason?: string | null }[];
    citations?: unknown[];
  };
  try {
    chunk = JSON.parse(data);
  } catch {
    return undefined;
  }
  if (chunk.error) return { kind: 'error', message: chunk.error.message ?? 'error' };
  const choice = chunk.choices?.[0];
  if (choice?.finish_reason)
    return { kind: 'end', citations: chunk.citations ?? [], finishReason: choice.finish_reason };
  const text = choice?.delta?.content;
  return text ? { kind: 'text', text } : undefined;
}
