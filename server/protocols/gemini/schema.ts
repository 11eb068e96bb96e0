// Tool parameter schemas. Gemini's `parameters` is an OpenAPI subset whose types are upper case
// (OBJECT, STRING); `parametersJsonSchema` is plain JSON Schema. The canonical model keeps JSON
// Schema, so OpenAPI types are lowered on the way in, and JSON Schema goes out as it is.
import type { Json } from '../../../core/protocol/chat-types.ts';
import { isRecord } from '../shared/json-values.ts';

export function jsonSchemaFromOpenApi(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(jsonSchemaFromOpenApi);
  if (!isRecord(schema)) return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'type' && typeof value === 'string') out.type = value.toLowerCase();
    else if (key === 'properties' && isRecord(value)) out.properties = Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, jsonSchemaFromOpenApi(inner)]));
    else out[key] = jsonSchemaFromOpenApi(value);
  }
  return out;
}
