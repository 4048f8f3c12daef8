/**
 * The parts of a long attached file the model receives (passages/select.ts): the best-scoring
 * passage is always among them, also when the file's share of the context budget is small
 * (a full-size passage plus its "[...]" marker must fit the share), within the budget.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { selectRelevant } from '../../../src/passages/select.ts';

const FILLER =
  'The quarterly report lists the office supplies, the coffee machine and the printer paper of every team. ';
const FILE =
  FILLER.repeat(40) +
  'The parking garage closes at 22:00 on weekdays and stays closed on Sundays. ' +
  FILLER.repeat(40);
const QUESTION = 'When does the parking garage close on weekdays?';

test('the passage that answers the question is given, whatever the share', () => {
  for (const budget of [500, 600, 601, 800, 1200, 3000]) {
    const out = selectRelevant(FILE, QUESTION, budget, 'en');
    assert.match(out, /parking garage closes at 22:00/, `budget ${budget}`);
    assert.ok(out.length <= budget + 14, `budget ${budget}: ${out.length} characters`);
  }
});

test('a file within its share is given whole', () => {
  assert.equal(selectRelevant('Short note.', QUESTION, 600, 'en'), 'Short note.');
});
