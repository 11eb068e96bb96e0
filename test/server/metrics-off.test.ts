// /metrics without a token configured tells the operator how to turn it on with what exists: the
// environment variable GWCTL_METRICS_TOKEN (there is no --metrics-token flag).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTestGateway } from '../helpers/test-app.ts';

test('/metrics off: the answer names GWCTL_METRICS_TOKEN and no flag that does not exist', async () => {
  const gateway = await createTestGateway();
  try {
    const res = await gateway.text.inject({ url: '/metrics' });
    assert.equal(res.statusCode, 404);
    assert.match(res.json().error.message, /GWCTL_METRICS_TOKEN/);
    assert.doesNotMatch(res.json().error.message, /--metrics-token/);
  } finally {
    await gateway.close();
  }
});
