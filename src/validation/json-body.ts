/**
 * JSON request text to a value, with parse errors in the Pydantic v2 `json_invalid` shape
 * (`loc: ["body", <character position>]`). Shared by the body readers (src/http/body.ts and the
 * streaming push reader, which maps positions back to the body as sent).
 */
import { RequestValidationError } from '../errors.ts';

/** Parses `text`; an empty body is `undefined`. `position` maps V8's error position to the reported one. */
export function parseJsonBody(text: string, position: (pos: number) => number = (pos) => pos): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (err) {
    const m = /position (\d+)/.exec(String((err as Error).message));
    const pos = m ? Number(m[1]) : 0;
    throw new RequestValidationError([
      {
        type: 'json_invalid',
        loc: ['body', position(pos)],
        msg: 'JSON decode error',
        input: {},
        ctx: { error: 'Expecting value' },
      },
    ]);
  }
}
