/**
 * Reading server-sent events from an upstream response body: yields the
 * `data:` payload of every event (multi-line data joined by newlines) as soon
 * as the blank line ending the event has arrived. Comments and other fields
 * are skipped. Bounded: one event larger than `maxEventChars` is an error.
 */
export async function* sseData(body: ReadableStream<Uint8Array>, maxEventChars = 4_000_000): AsyncGenerator<string> {
  const reader = body
    .pipeThrough(new TextDecoderStream() as unknown as TransformStream<Uint8Array, string>)
    .getReader();
  let buf = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += value;
      for (;;) {
        const m = /\r\n\r\n|\n\n|\r\r/.exec(buf);
        if (!m) break;
        const event = buf.slice(0, m.index);
        buf = buf.slice(m.index + m[0].length);
        const data = dataOf(event);
        if (data !== undefined) yield data;
      }
      if (buf.length > maxEventChars) throw new Error(`upstream event larger than ${maxEventChars} characters`);
    }
    const data = dataOf(buf);
    if (data !== undefined) yield data;
  } finally {
    // Stops the upstream transfer when the consumer leaves early (client gone, error).
    await reader.cancel().catch(() => {});
  }
}

function dataOf(event: string): string | undefined {
  const lines: string[] = [];
  for (const line of event.split(/\r\n|\n|\r/)) {
    if (line.startsWith('data:')) lines.push(line.slice(line.startsWith('data: ') ? 6 : 5));
  }
  return lines.length > 0 ? lines.join('\n') : undefined;
}
