import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import { getOcfValidator, type Json, type Located } from '../../../libs/ocf';
import { checkNumbers } from './ocf-numbers';
import { scanJson } from './ocf-json-scan';
import { Findings, OcfProblem } from './ocf-problems';

/** The objects of a package, by kind, in manifest order (files) and file order (items). */
export interface OcfPackage {
  manifestFile: string;
  manifest: Json;
  stakeholders: Located[];
  stockClasses: Located[];
  legends: Located[];
  plans: Located[];
  vestingTerms: Located[];
  valuations: Located[];
  transactions: Located[];
  financings: Located[];
  documents: Located[];
}

export const MANIFEST_NAME = 'Manifest.ocf.json';

/** A package with its manifest and no object yet. */
export function emptyPackage(manifestFile: string, manifest: Json): OcfPackage {
  return {
    manifestFile,
    manifest,
    stakeholders: [],
    stockClasses: [],
    legends: [],
    plans: [],
    vestingTerms: [],
    valuations: [],
    transactions: [],
    financings: [],
    documents: [],
  };
}

/** The default of OCF_IMPORT_MAX_OBJECTS_PER_FILE (the service passes the configured one). */
export const MAX_OBJECTS_PER_FILE = 100_000;

/** The manifest's file lists: the member, the file type its files must have, the package's kind. */
const LISTS = [
  ['stakeholders_files', 'OCF_STAKEHOLDERS_FILE', 'stakeholders'],
  ['stock_classes_files', 'OCF_STOCK_CLASSES_FILE', 'stockClasses'],
  ['stock_legend_templates_files', 'OCF_STOCK_LEGEND_TEMPLATES_FILE', 'legends'],
  ['stock_plans_files', 'OCF_STOCK_PLANS_FILE', 'plans'],
  ['vesting_terms_files', 'OCF_VESTING_TERMS_FILE', 'vestingTerms'],
  ['valuations_files', 'OCF_VALUATIONS_FILE', 'valuations'],
  ['transactions_files', 'OCF_TRANSACTIONS_FILE', 'transactions'],
  ['financings_files', 'OCF_FINANCINGS_FILE', 'financings'],
  ['documents_files', 'OCF_DOCUMENTS_FILE', 'documents'],
] as const;

type Kind = (typeof LISTS)[number][2];

const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The file's JSON, or undefined with a problem: when it holds more than `maxObjects` objects, or
 * one object too large (see scanJson; measured on the bytes, before parsing: a file of millions
 * of `{}` would take a heap of objects, and the schema check an error each), or it is not JSON.
 */
function parse(name: string, bytes: Buffer, maxObjects: number, problems: Findings): unknown {
  const scanned = scanJson(bytes, maxObjects);
  if (!scanned.ok) {
    problems.add(name, scanned.path, scanned.reason);
    return undefined;
  }
  try {
    return JSON.parse(bytes.toString('utf8').replace(/^\uFEFF/, '')) as unknown;
  } catch (err) {
    problems.add(name, '', `not valid JSON: ${(err as Error).message}`);
    return undefined;
  }
}

/**
 * Reads and checks a package: the one `Manifest.ocf.json` (at the root or in one folder), every
 * file it lists (paths relative to the manifest's folder; present, its MD5 as listed, at most
 * `maxObjects` objects and none too large, valid JSON, valid against the schema of its
 * `file_type`, the file type the list wants, listed once, numbers the ledger can hold), and the
 * manifest's own schema and OCF version. Every problem is reported, not only the first; but a
 * file is parsed only once its MD5 is the manifest's (the MD5 is cheap, the parse is not, and a
 * file that is not the one listed has nothing more to say). Files the manifest does not list are
 * reported back as warnings (not read).
 */
export function readPackage(
  files: Map<string, Buffer>,
  maxObjects = MAX_OBJECTS_PER_FILE,
): { package: OcfPackage; warnings: OcfProblem[] } | { problems: OcfProblem[] } {
  const problems = new Findings();
  const warnings = new Findings();
  const validator = getOcfValidator();
  const manifests = [...files.keys()].filter((n) => posix.basename(n) === MANIFEST_NAME);
  if (manifests.length !== 1) {
    problems.add(
      manifests[1] ?? '',
      '',
      manifests.length
        ? `the zip holds ${manifests.length} manifests (${manifests.join(', ')}); an OCF package has one`
        : `the zip holds no ${MANIFEST_NAME}`,
    );
    return { problems: problems.list };
  }
  const manifestFile = manifests[0];
  const folder = posix.dirname(manifestFile);
  const manifest = parse(manifestFile, files.get(manifestFile)!, maxObjects, problems);
  if (manifest === undefined) return { problems: problems.list };
  const checked = validator.validateFile(manifest);
  for (const e of checked.errors) problems.add(manifestFile, e.path, e.message);
  if (!isObject(manifest) || manifest.file_type !== 'OCF_MANIFEST_FILE') {
    if (!problems.size) problems.add(manifestFile, '/file_type', 'must be "OCF_MANIFEST_FILE"');
    return { problems: problems.list };
  }

  const pkg = emptyPackage(manifestFile, manifest);
  const listed = new Set<string>([manifestFile]);
  for (const [member, fileType, kind] of LISTS) {
    const list = manifest[member];
    if (!Array.isArray(list)) continue;
    list.forEach((ref: unknown, i) => {
      if (!isObject(ref) || typeof ref.filepath !== 'string') return; // the schema said so already
      const at = `/${member}/${i}/filepath`;
      const name = posix.normalize(posix.join(folder, ref.filepath));
      if (name.startsWith('../') || name === '..' || posix.isAbsolute(ref.filepath)) {
        problems.add(manifestFile, at, `${ref.filepath} is outside the package`);
        return;
      }
      if (listed.has(name)) {
        problems.add(manifestFile, at, `${ref.filepath} is listed twice`);
        return;
      }
      listed.add(name);
      const bytes = files.get(name);
      if (!bytes) {
        problems.add(manifestFile, at, `${ref.filepath} is not in the zip`);
        return;
      }
      // Without a listed MD5 (the manifest's schema requires one, so a problem is reported
      // already) the file is not read either.
      if (typeof ref.md5 !== 'string') return;
      const md5 = createHash('md5').update(bytes).digest('hex');
      if (ref.md5.toLowerCase() !== md5) {
        problems.add(
          manifestFile,
          `/${member}/${i}/md5`,
          `${ref.filepath} has the MD5 ${md5}, not ${ref.md5}: not read`,
        );
        return;
      }
      readFile(name, bytes, fileType, kind, pkg, maxObjects, problems);
    });
  }
  for (const name of files.keys()) {
    if (!listed.has(name)) {
      warnings.add(name, '', 'not listed in the manifest: not read');
    }
  }
  if (problems.size) return { problems: problems.list };
  return { package: pkg, warnings: warnings.list };
}

function readFile(
  name: string,
  bytes: Buffer,
  fileType: string,
  kind: Kind,
  pkg: OcfPackage,
  maxObjects: number,
  problems: Findings,
) {
  const json = parse(name, bytes, maxObjects, problems);
  if (json === undefined) return;
  const checked = getOcfValidator().validateFile(json);
  for (const e of checked.errors) problems.add(name, e.path, e.message);
  if (!isObject(json)) return;
  if (json.file_type !== fileType) {
    if (checked.valid) {
      problems.add(
        name,
        '/file_type',
        `is listed as an ${fileType}, not ${String(json.file_type)}`,
      );
    }
    return;
  }
  if (!checked.valid || !Array.isArray(json.items)) return;
  json.items.forEach((object: Json, i) => {
    checkNumbers(name, `/items/${i}`, object, problems);
    pkg[kind].push({ file: name, path: `/items/${i}`, object });
  });
}
