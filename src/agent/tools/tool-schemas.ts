import type { OpenAPIObject } from '@nestjs/swagger';
import type { ToolDefinition } from './tool-catalogue';

type Json = Record<string, unknown>;

/** A tool's `input_schema`: a JSON Schema object (the Messages API's tool contract). */
export interface InputSchema {
  [key: string]: unknown;
  type: 'object';
  properties: Record<string, Json>;
  required: string[];
  additionalProperties: false;
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Json;
}

/** `$ref`s are resolved to this depth; deeper ones stay plain objects (no cycle loops forever). */
const MAX_DEPTH = 8;

/** Copies a schema with its `$ref`s resolved from the document's components. */
function resolve(doc: OpenAPIObject, schema: unknown, depth = 0): unknown {
  if (Array.isArray(schema)) return schema.map((s) => resolve(doc, s, depth));
  if (!schema || typeof schema !== 'object') return schema;
  const node = schema as Json;
  if (typeof node.$ref === 'string') {
    if (depth >= MAX_DEPTH) return { type: 'object' };
    const name = node.$ref.replace('#/components/schemas/', '');
    return resolve(doc, doc.components?.schemas?.[name], depth + 1);
  }
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key]) => key !== 'example')
      .map(([key, value]) => [key, resolve(doc, value, depth)]),
  );
}

/** The operation a tool runs, or undefined when the app serves no such route (e.g. in production). */
export function operationOf(doc: OpenAPIObject, tool: ToolDefinition): Json | undefined {
  const path = doc.paths[tool.path] as Record<string, Json> | undefined;
  return path?.[tool.method.toLowerCase()];
}

/**
 * The tool's input schema from its route: the request body's fields, the query parameters of a
 * read, and the path's record ids under their record kinds; never the organization (the chat's).
 */
export function inputSchemaOf(doc: OpenAPIObject, tool: ToolDefinition): InputSchema | undefined {
  const operation = operationOf(doc, tool);
  if (!operation) return undefined;
  const properties: Record<string, Json> = {};
  const required: string[] = [];
  for (const p of (operation.parameters ?? []) as Parameter[]) {
    if (p.name === 'organization' || p.in === 'header') continue;
    if (p.in === 'path') {
      const name = tool.ids?.[p.name] ?? p.name;
      properties[name] = { type: 'string', format: 'uuid', description: `The ${name} id` };
      required.push(name);
    } else if (p.in === 'query') {
      properties[p.name] = {
        ...((resolve(doc, p.schema) as Json) ?? { type: 'string' }),
        ...(p.description ? { description: p.description } : {}),
      };
      if (p.required) required.push(p.name);
    }
  }
  const content = (operation.requestBody as Json | undefined)?.content as
    Record<string, { schema?: unknown }> | undefined;
  const body = resolve(doc, content?.['application/json']?.schema) as Json | undefined;
  for (const [name, schema] of Object.entries((body?.properties ?? {}) as Record<string, Json>)) {
    if (name === 'organization') continue;
    properties[name] = schema;
  }
  for (const name of (body?.required ?? []) as string[]) {
    if (name !== 'organization' && !required.includes(name)) required.push(name);
  }
  return { type: 'object', properties, required, additionalProperties: false };
}
