/**
 * OpenAPI operations of a person's own data (personal key or browser
 * session): saved conversations and the search analytics events and history,
 * plus the service's own endpoints: the liveness check, this document and its
 * HTML reference page. Bodies are the handlers' schemas.
 */
import * as v from 'valibot';
import { AnalyticsEvent } from '../analytics/records.ts';
import {
  AppendMessagesBody,
  CreateConversationBody,
  MessageInput,
  RenameConversationBody,
} from '../conversations/schema.ts';
import type { Operation } from './operations.ts';
import type { SchemaRegistry } from './schema.ts';

const str = v.string();
const int = v.pipe(v.number(), v.integer());

const Summary = v.object({ id: str, title: str, created_at: str, updated_at: str, message_count: int });

export function accountOperations(r: SchemaRegistry): Operation[] {
  const summary = r.named('ConversationSummary', Summary);
  const message = r.named('ConversationMessage', v.object({ ...MessageInput.entries, created_at: str }));
  const conversation = r.named('Conversation', v.object({ ...Summary.entries, messages: v.array(message) }));
  const own = { tag: 'Conversations', access: 'personal' } as const;
  const B = '/api/conversations';
  const id = { id: 'Conversation id (`conv_` and 24 hex digits).' };
  return [
    {
      ...own,
      method: 'get',
      path: B,
      id: 'list_conversations',
      summary: 'List conversations',
      ok: { description: 'Newest first', schema: v.object({ conversations: v.array(summary) }) },
    },
    {
      ...own,
      method: 'post',
      path: B,
      id: 'create_conversation',
      summary: 'Save a conversation',
      body: CreateConversationBody,
      errors: [409],
      ok: { status: 201, description: 'The conversation', schema: conversation },
    },
    {
      ...own,
      method: 'get',
      path: `${B}/{id}`,
      id: 'get_conversation',
      summary: 'Get a conversation',
      pathParams: id,
      errors: [404],
      ok: { description: 'The conversation', schema: conversation },
    },
    {
      ...own,
      method: 'post',
      path: `${B}/{id}/messages`,
      id: 'append_messages',
      summary: 'Append messages',
      description: '`replace_from` keeps only that many messages first (regenerate).',
      pathParams: id,
      body: AppendMessagesBody,
      errors: [404, 409],
      ok: { description: 'The conversation', schema: summary },
    },
    {
      ...own,
      method: 'patch',
      path: `${B}/{id}`,
      id: 'rename_conversation',
      summary: 'Rename a conversation',
      pathParams: id,
      body: RenameConversationBody,
      errors: [404],
      ok: { description: 'The conversation', schema: summary },
    },
    {
      ...own,
      method: 'delete',
      path: `${B}/{id}`,
      id: 'delete_conversation',
      summary: 'Delete a conversation',
      pathParams: id,
      errors: [404],
      ok: { description: 'Deleted', schema: v.object({ id: str, deleted: v.literal(true) }) },
    },
    {
      method: 'post',
      path: '/api/analytics/events',
      id: 'record_analytics_event',
      summary: 'Record a click or feedback',
      tag: 'Analytics',
      access: 'personal',
      body: AnalyticsEvent,
      ok: { status: 204, description: 'Recorded' },
    },
    {
      method: 'delete',
      path: '/api/analytics/history',
      id: 'delete_search_history',
      summary: 'Delete my search history',
      tag: 'Analytics',
      access: 'personal',
      ok: { description: 'Records removed', schema: v.object({ deleted: int }) },
    },
    {
      method: 'get',
      path: '/healthz',
      id: 'healthz',
      summary: 'Liveness',
      tag: 'Service',
      access: 'none',
      ok: { description: 'The process answers', schema: v.object({ status: v.literal('ok') }) },
    },
    {
      method: 'get',
      path: '/readyz',
      id: 'readyz',
      summary: 'Readiness',
      description: 'Ready once the state is loaded, the index open and the indexing queue replayed; 503 before.',
      tag: 'Service',
      access: 'none',
      ok: { description: 'Ready', schema: v.object({ status: v.literal('ready') }) },
      errors: [503],
    },
    {
      method: 'get',
      path: '/version',
      id: 'version',
      summary: 'The running version',
      tag: 'Service',
      access: 'none',
      ok: { description: 'The same as `enterprise-search --version`', schema: v.object({ version: v.string() }) },
    },
    {
      method: 'get',
      path: '/api/beta/openapi.json',
      id: 'openapi_document',
      summary: 'This OpenAPI document',
      tag: 'Service',
      access: 'any-key',
      ok: { description: 'OpenAPI 3.1', media: { 'application/json': { schema: { type: 'object' } } } },
    },
    {
      method: 'get',
      path: '/api/docs',
      id: 'api_reference',
      summary: 'API reference page',
      description: 'This document as an HTML page (a bearer key, or the browser session of a signed-in account).',
      tag: 'Service',
      access: 'any',
      ok: { description: 'HTML', media: { 'text/html': { schema: { type: 'string' } } } },
    },
  ];
}
