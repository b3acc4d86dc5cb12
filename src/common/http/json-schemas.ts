/**
 * Component schemas written as JSON Schema rather than as classes (the ledger's payloads, TypeBox
 * schemas), for the OpenAPI document: a module documents them where it defines them
 * (`documentSchemas`), and `completeDocument` adds them to the document's components, in OpenAPI
 * 3.0's dialect (`nullable` rather than a null type, `enum` rather than `const`).
 */

type Json = Record<string, unknown>;

type Schemas = Record<string, object>;
const DOCUMENTED: (() => Schemas)[] = [];

/**
 * Adds component schemas to the document, under their names: given, or made when the document
 * is (for schemas gathered from what other modules declare as they load).
 */
export function documentSchemas(schemas: Schemas | (() => Schemas)): void {
  DOCUMENTED.push(typeof schemas === 'function' ? schemas : () => schemas);
}

/** The component schemas documented, by name (a name documented twice is refused). */
export function documentedSchemas(): ReadonlyMap<string, Json> {
  const all = new Map<string, Json>();
  for (const [name, schema] of DOCUMENTED.flatMap((made) => Object.entries(made()))) {
    if (all.has(name)) throw new Error(`the schema ${name} is documented twice`);
    all.set(name, toOpenApi30(schema) as Json);
  }
  return all;
}

const isNull = (s: unknown) => !!s && typeof s === 'object' && (s as Json).type === 'null';
const constOf = (s: unknown) =>
  s && typeof s === 'object' && 'const' in s ? { value: (s as Json).const } : undefined;

/**
 * A JSON Schema (draft 7, as TypeBox writes it) in OpenAPI 3.0's dialect: `anyOf` with a null
 * type becomes `nullable`, a `const` and a union of them an `enum`, `$id` and TypeBox's own
 * markers (symbol keys) go.
 */
export function toOpenApi30(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toOpenApi30);
  if (!schema || typeof schema !== 'object') return schema;
  const { $id: _id, ...rest } = schema as Json;
  const out: Json = {};
  for (const [key, value] of Object.entries(rest)) {
    out[key] =
      key === 'properties'
        ? Object.fromEntries(Object.entries(value as Json).map(([k, v]) => [k, toOpenApi30(v)]))
        : toOpenApi30(value);
  }
  const constant = constOf(out);
  if (constant) {
    delete out.const;
    out.enum = [constant.value];
  }
  const anyOf = out.anyOf as Json[] | undefined;
  if (!anyOf) return out;
  const { anyOf: _anyOf, ...options } = out;
  const values = anyOf.filter((s) => !isNull(s));
  const nullable = values.length < anyOf.length;
  let merged: Json;
  if (values.length && values.every((s) => Array.isArray(s.enum) && s.type === values[0].type)) {
    merged = { type: values[0].type, enum: values.flatMap((s) => s.enum as unknown[]) };
  } else if (values.length === 1) {
    merged = values[0].$ref ? { allOf: [values[0]] } : { ...values[0] };
  } else {
    merged = { anyOf: values };
  }
  return { ...merged, ...options, ...(nullable ? { nullable: true } : {}) };
}
