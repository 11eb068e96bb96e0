// Google's embedding models on Vertex: which API a model answers, how a Gemini embedding request
// becomes the calls the model takes, and how their answers become the Gemini API's.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { embeddingApiOf, embeddingCalls, geminiEmbeddingAnswer } from '../../../../server/providers/vertex/vertex-embeddings.ts';

const request = (text: string, extra: Record<string, unknown> = {}) => ({ content: { parts: [{ text }] }, ...extra });

test('the API of a model: :predict for text-embedding-* and gemini-embedding-001, :embedContent for newer Gemini embedding models', () => {
  assert.equal(embeddingApiOf('text-embedding-005'), 'predict');
  assert.equal(embeddingApiOf('text-multilingual-embedding-002'), 'predict');
  assert.equal(embeddingApiOf('gemini-embedding-001'), 'predict');
  assert.equal(embeddingApiOf('gemini-embedding-2-preview'), 'embedContent');
});

test(':predict calls: up to 250 texts, a new call at each change of vector size; one text a call for gemini-embedding-001', () => {
  const requests = [...Array.from({ length: 251 }, (_, i) => request(`t${i}`)), request('sized', { outputDimensionality: 3 })];
  const calls = embeddingCalls('text-embedding-005', { requests }, true);
  assert.ok(!('refusal' in calls));
  assert.deepEqual(calls.bodies.map((b: any) => [b.instances.length, b.parameters?.outputDimensionality]), [[250, undefined], [1, undefined], [1, 3]]);
  const single = embeddingCalls('gemini-embedding-001', { requests: [request('a'), request('b', { title: 'B', taskType: 'RETRIEVAL_DOCUMENT' })] }, true);
  assert.ok(!('refusal' in single));
  assert.deepEqual(single.bodies, [{ instances: [{ content: 'a' }] }, { instances: [{ content: 'b', task_type: 'RETRIEVAL_DOCUMENT', title: 'B' }] }]);
  const parts = embeddingCalls('text-embedding-005', { content: { parts: [{ text: 'one' }, { text: 'two' }] } }, false);
  assert.ok(!('refusal' in parts));
  assert.deepEqual(parts.bodies, [{ instances: [{ content: 'one\ntwo' }] }], 'the parts of one content are one text');
});

test('requests the model cannot take are refused by field: no requests, a part that is not text, a bad size', () => {
  const refusal = (model: string, body: Record<string, unknown>, batch: boolean) => {
    const calls = embeddingCalls(model, body, batch);
    assert.ok('refusal' in calls, JSON.stringify(calls));
    return calls.refusal;
  };
  assert.match(refusal('text-embedding-005', { requests: [] }, true), /requests must be a non-empty list/);
  assert.match(refusal('text-embedding-005', { requests: [request('a'), { content: { parts: [{ inlineData: {} }] } }] }, true), /^requests\[1\]\.content\.parts\[0\]: the embedding model takes text parts only/);
  assert.match(refusal('gemini-embedding-2-preview', request('a', { outputDimensionality: -1 }), false), /outputDimensionality must be a whole number above 0/);
});

test('answers: vectors in call order, Vertex\'s token counts as usageMetadata; an answer short of vectors is not an answer', () => {
  const predict = [
    { predictions: [{ embeddings: { values: [1], statistics: { token_count: 2 } } }, { embeddings: { values: [2], statistics: { token_count: 3 } } }] },
    { predictions: [{ embeddings: { values: [3], statistics: { token_count: 4 } } }] },
  ];
  assert.deepEqual(geminiEmbeddingAnswer('predict', predict, 3, true), { embeddings: [{ values: [1] }, { values: [2] }, { values: [3] }], usageMetadata: { promptTokenCount: 9, totalTokenCount: 9 } });
  assert.deepEqual(geminiEmbeddingAnswer('embedContent', [{ embedding: { values: [5, 6] }, usageMetadata: { promptTokenCount: 7 } }], 1, false), { embedding: { values: [5, 6] }, usageMetadata: { promptTokenCount: 7, totalTokenCount: 7 } });
  assert.equal(geminiEmbeddingAnswer('predict', predict, 4, true), undefined, 'fewer vectors than texts');
  assert.equal(geminiEmbeddingAnswer('predict', [{ predictions: [{ embeddings: {} }] }], 1, true), undefined, 'a prediction without values');
  assert.equal(geminiEmbeddingAnswer('embedContent', [undefined], 1, false), undefined, 'not JSON');
});
