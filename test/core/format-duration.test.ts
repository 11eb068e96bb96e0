// Waits in words: seconds under a minute, minutes under an hour, then hours and days.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatDuration } from '../../core/format-duration.ts';

test('durations read as people say them', () => {
  assert.equal(formatDuration(7), '7 s');
  assert.equal(formatDuration(61), '2 min');
  assert.equal(formatDuration(72241), '20 h 4 min');
  assert.equal(formatDuration(7200), '2 h');
  assert.equal(formatDuration(345600), '4 d');
  assert.equal(formatDuration(90000), '1 d 1 h');
  assert.throws(() => formatDuration(-1), /a duration must be a number of seconds >= 0, got -1/);
});
