import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OCF_SCHEMA_DIR } from '../../../libs/ocf';
import type { Findings } from './ocf-problems';

/**
 * The digits the ledger's columns hold: numeric(38, 10), at most 28 before the point and 10 after,
 * as the API's DecimalField checks them. OCF's Numeric allows 10 after the point and any number
 * before it, so a package may carry a quantity that passes the replay (decimal.js has no such
 * limit) and then overflows the database write.
 */
const WHOLE_DIGITS = 28;
const NUMERIC = /^[+-]?0*(\d*)(\.\d+)?$/;
const NUMERIC_REF = '/types/Numeric.schema.json';

type Json = Record<string, unknown>;

let numericNames: Set<string> | undefined;

/**
 * The names of the properties the OCF schemas type as Numeric (alone or in a `oneOf`, e.g.
 * `initial_shares_authorized`), read once from the vendored schemas: `quantity`, `amount` (of
 * Monetary), `shares_reserved`, `numerator`, ...
 */
export function numericProperties(): Set<string> {
  if (numericNames) return numericNames;
  const names = new Set<string>();
  const visit = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (typeof node !== 'object' || node === null) return;
    const properties = (node as Json).properties;
    if (typeof properties === 'object' && properties !== null) {
      for (const [name, schema] of Object.entries(properties)) {
        if (refersToNumeric(schema)) names.add(name);
      }
    }
    Object.values(node).forEach(visit);
  };
  for (const file of schemaFiles(OCF_SCHEMA_DIR)) visit(JSON.parse(readFileSync(file, 'utf8')));
  numericNames = names;
  return names;
}

/** The schema is Numeric, or one of its alternatives is (not looking into nested properties). */
function refersToNumeric(schema: unknown): boolean {
  if (Array.isArray(schema)) return schema.some(refersToNumeric);
  if (typeof schema !== 'object' || schema === null) return false;
  const s = schema as Json;
  if (typeof s.$ref === 'string' && s.$ref.endsWith(NUMERIC_REF)) return true;
  return [s.oneOf, s.anyOf, s.allOf].some((alternatives) => refersToNumeric(alternatives ?? []));
}

function schemaFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return schemaFiles(path);
    return entry.name.endsWith('.schema.json') ? [path] : [];
  });
}

/**
 * Adds a problem for every Numeric value of the object (at any depth) with more digits before the
 * point than the ledger holds, at its JSON pointer (`path` is the object's, in `file`).
 */
export function checkNumbers(
  file: string,
  path: string,
  object: unknown,
  problems: Findings,
): void {
  const names = numericProperties();
  const visit = (node: unknown, path: string) => {
    if (Array.isArray(node)) {
      node.forEach((v, i) => visit(v, `${path}/${i}`));
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      const at = `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (typeof value === 'string' && names.has(key)) {
        const whole = NUMERIC.exec(value)?.[1];
        if (whole !== undefined && whole.length > WHOLE_DIGITS) {
          problems.add(
            file,
            at,
            `${value} has more than ${WHOLE_DIGITS} digits before the point (the ledger holds at most ${WHOLE_DIGITS} before the point and 10 after)`,
          );
        }
      } else {
        visit(value, at);
      }
    }
  };
  visit(object, path);
}
