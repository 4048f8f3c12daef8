/**
 * Feedback on a chat answer: under each complete answer, "Was this answer
 * helpful?" with two toggle buttons (thumbs up / down, `aria-pressed`) and,
 * once one is chosen, an optional comment field with a send button. Each
 * choice and each comment is sent at once (POST /api/analytics/events,
 * `type: "feedback"`) under one id per answer, so a later choice replaces
 * the earlier one in the report. The question and the answer go with it,
 * cut to the API's limits. A status line says what happened. Only when the
 * server records analytics (page data `feedback`). Built from DOM nodes.
 */
import { sendEvent } from '../analytics/send.ts';
import { button, el, tr } from './text.ts';

const MAX_QUESTION = 2000;
const MAX_ANSWER = 4000;
const MAX_COMMENT = 1000;
const SVG = 'http://www.w3.org/2000/svg';
/** A thumb pointing up (the down button turns it in CSS). */
const THUMB =
  'M2 21h4V9H2v12zm20-11a2 2 0 0 0-2-2h-6.3l1-4.6v-.3c0-.4-.2-.8-.4-1.1L13.2 1 6.6 7.6C6.2 8 6 8.5 6 9v10a2 2 0 0 0 2 2h9c.8 0 1.5-.5 1.8-1.2l3-7.1c.1-.2.2-.5.2-.7v-2z';

export interface FeedbackContext {
  question: string;
  answer: string;
  conversationId: string | null;
}

let enabled = false;
let counter = 0;

export function setFeedbackEnabled(on: boolean): void {
  enabled = on;
}

function icon(): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  const path = document.createElementNS(SVG, 'path');
  path.setAttribute('d', THUMB);
  svg.append(path);
  return svg;
}

function thumb(label: string, className: string): HTMLButtonElement {
  const b = button('', className);
  b.setAttribute('aria-pressed', 'false');
  b.append(icon(), el('span', undefined, label));
  return b;
}

/** The feedback row of one answer; null when analytics are off. `context` is read when sending. */
export function feedbackRow(context: () => FeedbackContext): HTMLElement | null {
  if (!enabled) return null;
  const n = ++counter;
  const id = `fb_${[...crypto.getRandomValues(new Uint8Array(12))].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
  const row = el('div', 'msg-feedback');
  row.setAttribute('role', 'group');
  row.setAttribute('aria-labelledby', `fb-label-${n}`);
  const label = el('span', 'msg-feedback-label', tr('chat.feedback'));
  label.id = `fb-label-${n}`;
  const up = thumb(tr('chat.feedbackUp'), 'thumb-up');
  const down = thumb(tr('chat.feedbackDown'), 'thumb-down');
  const form = el('form');
  form.hidden = true;
  const commentLabel = el('label', undefined, tr('chat.feedbackComment'));
  commentLabel.htmlFor = `fb-comment-${n}`;
  const comment = el('textarea');
  comment.id = `fb-comment-${n}`;
  comment.rows = 2;
  comment.maxLength = MAX_COMMENT;
  const send = el('button', undefined, tr('chat.feedbackSend'));
  send.type = 'submit';
  form.append(commentLabel, comment, send);
  const status = el('p', 'hint msg-feedback-status');
  status.setAttribute('role', 'status');
  row.append(label, up, down, form, status);

  let rating: 'up' | 'down' | undefined;
  const submit = async (thanks: string) => {
    if (!rating) return;
    const c = context();
    const failure = await sendEvent({
      type: 'feedback',
      id,
      rating,
      comment: comment.value.trim().slice(0, MAX_COMMENT),
      question: c.question.slice(0, MAX_QUESTION),
      answer: c.answer.slice(0, MAX_ANSWER),
      ...(c.conversationId ? { conversation_id: c.conversationId } : {}),
    });
    status.textContent = failure === undefined ? tr(thanks) : tr('chat.feedbackFailed', { reason: failure });
  };
  const choose = (value: 'up' | 'down') => {
    rating = value;
    up.setAttribute('aria-pressed', String(value === 'up'));
    down.setAttribute('aria-pressed', String(value === 'down'));
    form.hidden = false;
    void submit('chat.feedbackThanks');
  };
  up.addEventListener('click', () => choose('up'));
  down.addEventListener('click', () => choose('down'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void submit('chat.feedbackSent');
  });
  return row;
}
