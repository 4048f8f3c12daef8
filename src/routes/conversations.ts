/**
 * Saved chat conversations of the calling account (personal key, or the
 * browser session with the X-CSRF-Token header for changes):
 *   GET    /api/conversations              -> {conversations: [summary]} newest first
 *   POST   /api/conversations              {title?, messages?} -> 201 conversation
 *   GET    /api/conversations/{id}         -> conversation with its messages
 *   POST   /api/conversations/{id}/messages {messages, replace_from?} -> summary
 *   PATCH  /api/conversations/{id}         {title} -> summary
 *   DELETE /api/conversations/{id}         -> {id, deleted: true}
 * A conversation of another account, like an unknown id, is 404 `{detail}`;
 * bodies are validated strictly (422); limits reached are 409
 * (src/conversations/schema.ts).
 */
import { Hono, type Context } from 'hono';
import { requirePersonal } from '../auth/middleware.ts';
import { AppendMessagesBody, CreateConversationBody, RenameConversationBody } from '../conversations/schema.ts';
import type { ConversationStore } from '../conversations/store.ts';
import { jsonBody } from '../http/body.ts';
import type { AppEnv } from '../http/env.ts';
import type { Services } from '../services.ts';

const BASE = '/api/conversations';

function accountOf(c: Context<AppEnv>): string {
  const principal = c.get('principal');
  if (principal.kind !== 'account') throw new Error('requirePersonal lets only accounts through');
  return principal.accountId;
}

export function conversationRoutes(services: Services & { conversations: ConversationStore }): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const store = services.conversations;
  app.use(BASE, requirePersonal(services));
  app.use(`${BASE}/*`, requirePersonal(services));

  app.get(BASE, async (c) => c.json({ conversations: await store.list(accountOf(c)) }));
  app.post(BASE, async (c) => {
    const body = await jsonBody(c, CreateConversationBody);
    return c.json(await store.create(accountOf(c), body), 201);
  });
  app.get(`${BASE}/:id`, async (c) => c.json(await store.get(accountOf(c), c.req.param('id'))));
  app.post(`${BASE}/:id/messages`, async (c) => {
    const body = await jsonBody(c, AppendMessagesBody);
    return c.json(await store.append(accountOf(c), c.req.param('id'), body));
  });
  app.patch(`${BASE}/:id`, async (c) => {
    const body = await jsonBody(c, RenameConversationBody);
    return c.json(await store.rename(accountOf(c), c.req.param('id'), body.title));
  });
  app.delete(`${BASE}/:id`, async (c) => c.json(await store.remove(accountOf(c), c.req.param('id'))));
  return app;
}
