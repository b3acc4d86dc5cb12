/**
 * Validation against the vendored Open Cap Format schemas (libs/ocf/schema, JSON Schema draft 7).
 *
 * Every schema file is registered by its `$id` (the schemas refer to each other by absolute
 * `$id`, never by relative path) in two Ajv instances: a fast one (stops at the first error) that
 * decides valid / invalid, and a detailed one (`allErrors`) that only runs to explain a failure.
 * Schemas are compiled once per validator; create one validator per process (`getOcfValidator()`)
 * and reuse it.
 *
 * A file is validated against the file schema its `file_type` names. When it fails, the errors
 * are explained item by item: an item of the TransactionsFile (whose `items` are a `oneOf` of
 * every transaction schema) is explained against the one schema its `object_type` selects, not
 * with one error per `oneOf` branch. The verdict is always the official schema's own; only the
 * explanation is narrowed.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { OcfFileType, OcfObjectType } from './ocf-types';

/** One problem, located by a JSON pointer (RFC 6901) into the validated document. */
export interface OcfValidationError {
  /**
   * Where: `''` is the document itself, `/items/3/quantity` a member. For a missing required
   * member or a member that is not allowed, the pointer names that member.
   */
  path: string;
  message: string;
}

export interface OcfValidationResult {
  valid: boolean;
  /** Empty when valid; at most `maxErrors` entries otherwise. */
  errors: OcfValidationError[];
}

export interface OcfValidatorOptions {
  /** Folder of the schemas (default: `schema/` beside this module, i.e. libs/ocf/schema). */
  schemaDir?: string;
  /** At most this many errors are reported per validation (default 100). */
  maxErrors?: number;
  /**
   * false: decide a TransactionsFile's items with the schema's `oneOf` of every transaction schema
   * as written, rather than with the one branch each item's `object_type` selects. Same verdict
   * (see FileEntry.branches), about 20 times slower; for the tests that show the equivalence.
   */
  dispatchItems?: boolean;
}

export interface OcfValidator {
  /** The OCF version of the schemas: the `ocf_version` a manifest must declare. */
  readonly ocfVersion: string;
  readonly fileTypes: readonly OcfFileType[];
  readonly objectTypes: readonly OcfObjectType[];
  /** Validates a parsed `*.ocf.json` file against the schema of its `file_type`. */
  validateFile(json: unknown): OcfValidationResult;
  /** Validates one object (e.g. `STAKEHOLDER`, `TX_STOCK_ISSUANCE`) against its object schema. */
  validateObject(objectType: OcfObjectType | string, json: unknown): OcfValidationResult;
  /** The `$id` of the file schema of a file type, or undefined for an unknown file type. */
  fileSchemaId(fileType: string): string | undefined;
  /** The `$id` of the object schema of an object type, or undefined for an unknown one. */
  objectSchemaId(objectType: string): string | undefined;
  /**
   * The object types a file type's `items` may hold (empty for the manifest): e.g. the
   * TransactionsFile admits neither `TX_ISSUER_AUTHORIZED_SHARES_ADJUSTMENT` nor the
   * `CE_STAKEHOLDER_*` change events, though they have object schemas.
   */
  itemObjectTypes(fileType: string): readonly OcfObjectType[];
}

interface SchemaDocument {
  $id: string;
  enum?: unknown[];
  properties?: Record<string, { const?: unknown; enum?: unknown[]; items?: ItemsSchema }>;
}

interface ItemsSchema {
  $ref?: string;
  oneOf?: { $ref?: string }[];
}

interface FileEntry {
  fileType: OcfFileType;
  schemaId: string;
  /** Object type → the `$id` of the item schema that admits it (TransactionsFile: a oneOf branch). */
  itemSchemas: Map<string, string>;
  /** True when the items are a `oneOf` of several object schemas (explained per object_type). */
  itemOneOf: boolean;
  /** The file schema (what decides, unless `branches` may). */
  validate: ValidateFunction;
  /** The file schema's item schema (`#/properties/items/items`). */
  validateItem?: ValidateFunction;
  /**
   * For a `oneOf` of item schemas each fixing `object_type` to its own values (pairwise
   * disjoint): object_type → that branch, compiled. An item whose object_type selects branch B
   * fails every other branch (their `object_type` excludes it), so it satisfies the `oneOf`
   * exactly when it satisfies B: validating B alone is the same verdict, without trying every
   * branch (about 20 times faster on TransactionsFile). Items naming no branch go through the
   * `oneOf` itself.
   */
  branches?: Map<string, ValidateFunction>;
}

/** The vendored schemas (libs/ocf/schema; dist/libs/ocf/schema in a build, copied by nest-cli.json). */
export const OCF_SCHEMA_DIR = join(__dirname, 'schema');
/** The vendored official samples (libs/ocf/samples; not part of a build). */
export const OCF_SAMPLES_DIR = join(__dirname, 'samples');

const FILE_TYPE_ENUM = 'schema/enums/FileType.schema.json';
const OBJECT_TYPE_ENUM = 'schema/enums/ObjectType.schema.json';
const MANIFEST_SCHEMA = 'schema/files/OCFManifestFile.schema.json';

function schemaFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...schemaFiles(path));
    else if (entry.name.endsWith('.schema.json')) found.push(path);
  }
  return found.sort();
}

function newAjv(allErrors: boolean): Ajv {
  // Strict mode except `strictRequired`: the schemas require members that a oneOf / anyOf branch
  // does not itself define (e.g. Document: `oneOf: [{required: ["path"]}, {required: ["uri"]}]`),
  // which is valid draft 7. Every other strict check passes on the vendored schemas.
  const ajv = new Ajv({ strict: true, strictRequired: false, allErrors });
  addFormats(ajv);
  return ajv;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const escapePointer = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1');

function toValidationError(error: ErrorObject, prefix: string): OcfValidationError {
  const path = prefix + error.instancePath;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return {
        path: `${path}/${escapePointer(String(params.missingProperty))}`,
        message: 'is required',
      };
    case 'additionalProperties':
      return {
        path: `${path}/${escapePointer(String(params.additionalProperty))}`,
        message: 'is not allowed here (no such property in the schema)',
      };
    case 'const':
      return { path, message: `must be ${JSON.stringify(params.allowedValue)}` };
    case 'enum': {
      const values = (params.allowedValues as unknown[]).map((v) => JSON.stringify(v));
      const shown =
        values.length > 12 ? [...values.slice(0, 12), `… (${values.length} values)`] : values;
      return { path, message: `must be one of ${shown.join(', ')}` };
    }
    default:
      return { path, message: error.message ?? error.keyword };
  }
}

/** Collects errors up to a limit, without duplicates. */
class Collector {
  readonly errors: OcfValidationError[] = [];
  private readonly seen = new Set<string>();
  constructor(private readonly max: number) {}

  get full(): boolean {
    return this.errors.length >= this.max;
  }

  add(error: OcfValidationError): void {
    const key = `${error.path}\u0000${error.message}`;
    if (this.full || this.seen.has(key)) return;
    this.seen.add(key);
    this.errors.push(error);
  }

  addAjv(errors: ErrorObject[] | null | undefined, prefix: string): void {
    for (const error of errors ?? []) this.add(toValidationError(error, prefix));
  }

  result(): OcfValidationResult {
    return { valid: this.errors.length === 0, errors: this.errors };
  }
}

const valid = (): OcfValidationResult => ({ valid: true, errors: [] });

const invalid = (path: string, message: string): OcfValidationResult => ({
  valid: false,
  errors: [{ path, message }],
});

export function createOcfValidator(options: OcfValidatorOptions = {}): OcfValidator {
  const schemaDir = options.schemaDir ?? OCF_SCHEMA_DIR;
  const maxErrors = options.maxErrors ?? 100;

  const documents = new Map<string, SchemaDocument>();
  const byPath = new Map<string, SchemaDocument>();
  for (const path of schemaFiles(schemaDir)) {
    const doc = JSON.parse(readFileSync(path, 'utf8')) as SchemaDocument;
    if (typeof doc.$id !== 'string') throw new Error(`${path} has no $id`);
    if (documents.has(doc.$id)) throw new Error(`${path} repeats the $id ${doc.$id}`);
    documents.set(doc.$id, doc);
    byPath.set(relative(schemaDir, path).split(sep).join('/'), doc);
  }
  const at = (rel: string): SchemaDocument => {
    const doc = byPath.get(rel.slice('schema/'.length));
    if (!doc) throw new Error(`${schemaDir} lacks ${rel}`);
    return doc;
  };

  function compile(ajv: Ajv, id: string): ValidateFunction {
    const validate = ajv.getSchema(id);
    if (!validate) throw new Error(`schema ${id} is not registered`);
    return validate;
  }

  const fast = newAjv(false);
  const detailed = newAjv(true);
  const all = [...documents.values()];
  fast.addSchema(all);
  detailed.addSchema(all);

  // The file types and object types, as the vendored enums list them (ocf-types.ts is generated
  // from the same enums by `npm run ocf:vendor`; a unit test keeps them equal).
  const fileTypes = (at(FILE_TYPE_ENUM).enum ?? []) as OcfFileType[];
  const objectTypes = (at(OBJECT_TYPE_ENUM).enum ?? []) as OcfObjectType[];
  const ocfVersion = at(MANIFEST_SCHEMA).properties?.ocf_version?.const;
  if (typeof ocfVersion !== 'string') throw new Error(`${MANIFEST_SCHEMA} fixes no ocf_version`);

  // object_type → object schema: the schema whose `object_type` is that `const`; for the types
  // no schema fixes by `const`, the schema whose `object_type` `enum` lists it.
  const typesOf = (doc: SchemaDocument): string[] => {
    const spec = doc.properties?.object_type;
    if (typeof spec?.const === 'string') return [spec.const];
    return (spec?.enum ?? []).filter((v): v is string => typeof v === 'string');
  };
  const objectSchemas = new Map<string, string>();
  for (const doc of all) {
    const spec = doc.properties?.object_type;
    if (typeof spec?.const === 'string') objectSchemas.set(spec.const, doc.$id);
  }
  for (const doc of all) {
    for (const type of typesOf(doc)) if (!objectSchemas.has(type)) objectSchemas.set(type, doc.$id);
  }

  // file_type → file schema, by the schemas' `file_type` `const`.
  const files = new Map<string, FileEntry>();
  for (const doc of all) {
    const fileType = doc.properties?.file_type?.const;
    if (typeof fileType !== 'string') continue;
    const items = doc.properties?.items?.items;
    const refs = (items?.oneOf ?? (items ? [items] : [])).map((branch) => branch.$ref);
    const itemSchemas = new Map<string, string>();
    let disjoint = true;
    for (const ref of refs) {
      const target = ref ? documents.get(ref) : undefined;
      if (!ref || !target) throw new Error(`${doc.$id}: item schema ${ref} is not vendored`);
      const types = typesOf(target);
      if (!types.length) disjoint = false;
      for (const type of types) {
        if (itemSchemas.has(type)) disjoint = false;
        itemSchemas.set(type, ref);
      }
    }
    const itemOneOf = refs.length > 1;
    files.set(fileType, {
      fileType: fileType as OcfFileType,
      schemaId: doc.$id,
      itemSchemas,
      itemOneOf,
      validate: compile(fast, doc.$id),
      validateItem: items
        ? fast.compile({ $ref: `${doc.$id}#/properties/items/items` })
        : undefined,
      branches:
        itemOneOf && disjoint && options.dispatchItems !== false
          ? new Map([...itemSchemas].map(([type, ref]) => [type, compile(fast, ref)]))
          : undefined,
    });
  }
  for (const fileType of fileTypes) {
    if (!files.has(fileType)) throw new Error(`no file schema has file_type ${fileType}`);
  }

  const detailedItems = new Map<string, ValidateFunction>();
  const detailedItem = (file: FileEntry): ValidateFunction => {
    let validate = detailedItems.get(file.schemaId);
    if (!validate) {
      validate = detailed.compile({ $ref: `${file.schemaId}#/properties/items/items` });
      detailedItems.set(file.schemaId, validate);
    }
    return validate;
  };

  /** The file schema's verdict on one item (see FileEntry.branches). */
  function validItem(file: FileEntry, item: unknown): boolean {
    const type = isObject(item) ? item.object_type : undefined;
    const branch = typeof type === 'string' ? file.branches?.get(type) : undefined;
    return branch ? branch(item) : file.validateItem!(item);
  }

  /** The file schema's verdict on a file. */
  function validFile(file: FileEntry, json: Record<string, unknown>): boolean {
    const items = json.items;
    if (!file.branches || !Array.isArray(items)) return file.validate(json);
    // The file without its items (an empty array satisfies every file's `items`), then each
    // item against the file's item schema: together exactly the file schema.
    if (!file.validate({ ...json, items: [] })) return false;
    for (const item of items) if (!validItem(file, item)) return false;
    return true;
  }

  function explainItem(file: FileEntry, item: unknown, prefix: string, out: Collector): void {
    if (!file.itemOneOf) {
      const validate = detailedItem(file);
      validate(item);
      out.addAjv(validate.errors, prefix);
      return;
    }
    if (!isObject(item)) {
      out.add({ path: prefix, message: 'must be object' });
      return;
    }
    const type = item.object_type;
    const branch = typeof type === 'string' ? file.itemSchemas.get(type) : undefined;
    if (!branch) {
      const path = `${prefix}/object_type`;
      if (type === undefined) out.add({ path, message: 'is required' });
      else if (typeof type === 'string' && objectSchemas.has(type)) {
        out.add({ path, message: `${type} is not allowed in an ${file.fileType}` });
      } else out.add({ path, message: `unknown OCF object type ${JSON.stringify(type)}` });
      return;
    }
    const validate = compile(detailed, branch);
    if (!validate(item)) {
      out.addAjv(validate.errors, prefix);
      return;
    }
    // Valid against its own schema, yet the oneOf failed: it matches more than one branch.
    out.add({ path: prefix, message: 'must match exactly one schema in oneOf (matches several)' });
  }

  function explainFile(file: FileEntry, json: Record<string, unknown>): OcfValidationResult {
    const out = new Collector(maxErrors);
    const items = json.items;
    if (file.validateItem && Array.isArray(items)) {
      // As in validFile: the file without its items, then each item.
      const envelope = compile(detailed, file.schemaId);
      envelope({ ...json, items: [] });
      out.addAjv(envelope.errors, '');
      for (let i = 0; i < items.length && !out.full; i++) {
        if (!validItem(file, items[i])) explainItem(file, items[i], `/items/${i}`, out);
      }
    } else {
      const validate = compile(detailed, file.schemaId);
      validate(json);
      out.addAjv(validate.errors, '');
    }
    if (!out.errors.length && !file.validate(json)) out.addAjv(file.validate.errors, ''); // never expected
    if (!out.errors.length) out.add({ path: '', message: `does not match ${file.schemaId}` });
    return out.result();
  }

  return {
    ocfVersion,
    fileTypes,
    objectTypes,

    validateFile(json: unknown): OcfValidationResult {
      if (!isObject(json)) return invalid('', 'must be an object (an OCF file)');
      const fileType = json.file_type;
      if (fileType === undefined) return invalid('/file_type', 'is required');
      const file = typeof fileType === 'string' ? files.get(fileType) : undefined;
      if (!file) {
        return invalid(
          '/file_type',
          `unknown OCF file type ${JSON.stringify(fileType)} (expected one of ${fileTypes.join(', ')})`,
        );
      }
      return validFile(file, json) ? valid() : explainFile(file, json);
    },

    validateObject(objectType: string, json: unknown): OcfValidationResult {
      const id = objectSchemas.get(objectType);
      if (!id)
        return invalid('/object_type', `unknown OCF object type ${JSON.stringify(objectType)}`);
      if (compile(fast, id)(json)) return valid();
      const validate = compile(detailed, id);
      validate(json);
      const out = new Collector(maxErrors);
      out.addAjv(validate.errors, '');
      return out.result();
    },

    fileSchemaId: (fileType) => files.get(fileType)?.schemaId,
    objectSchemaId: (objectType) => objectSchemas.get(objectType),
    itemObjectTypes: (fileType) =>
      [...(files.get(fileType)?.itemSchemas.keys() ?? [])] as OcfObjectType[],
  };
}

let shared: OcfValidator | undefined;

/** The process's validator, created (and its schemas compiled) on first use. */
export function getOcfValidator(): OcfValidator {
  shared ??= createOcfValidator();
  return shared;
}
