import { GoogleGenAI } from '@google/genai';
import { createTestGateway } from '/work/main/test/helpers/test-app.ts';
const gw = await createTestGateway();
const { key } = await gw.userWithKey();
const url = await gw.text.listen({ port: 0, host: '127.0.0.1' });
const ai = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: url } });
const r = await ai.models.generateContent({ model: 'demo-chat', contents: 'say pong' });
console.log('JSON:', r.text, JSON.stringify(r.usageMetadata));
const s = await ai.models.generateContentStream({ model: 'demo-chat', contents: 'say pong' });
let t = ''; for await (const c of s) { t += c.text ?? ''; if (c.usageMetadata) console.log('usage', JSON.stringify(c.usageMetadata)); }
console.log('STREAM:', t);
const list = await ai.models.list(); const names = []; for await (const m of list) names.push(m.name); console.log(names);
const ct = await ai.models.countTokens({ model: 'demo-chat', contents: 'hello there' }); console.log('count', ct);
const em = await ai.models.embedContent({ model: 'demo-embedding', contents: 'hello' }); console.log('embed', em.embeddings?.length, em.embeddings?.[0]?.values?.length);
try { await ai.models.generateContent({ model: 'nope', contents: 'x' }); } catch (e) { console.log('ERR', (e as Error).message.slice(0, 300)); }
const bad = new GoogleGenAI({ apiKey: 'sk-wrong', httpOptions: { baseUrl: url } });
try { await bad.models.generateContent({ model: 'demo-chat', contents: 'x' }); } catch (e) { console.log('ERR', (e as Error).message.slice(0, 300)); }
const raw = await fetch(`${url}/v1beta/models/demo-chat:streamGenerateContent?key=${key}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }) });
console.log(raw.status, raw.headers.get('content-type'), (await raw.text()).slice(0, 300));
await gw.text.close(); await gw.close();
