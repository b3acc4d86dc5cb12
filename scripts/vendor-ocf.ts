/**
 * Vendors the Open Cap Format (OCF) schemas and samples into libs/ocf, so that the service and
 * its tests read only the repository's copy (issue 13).
 *
 *   npm run ocf:vendor                  copy ../shared/ocf into libs/ocf (idempotent)
 *   npm run ocf:vendor -- --check       exit 1 when libs/ocf differs from ../shared/ocf
 *   npm run ocf:vendor -- --from DIR    read another OCF folder instead of ../shared/ocf
 *
 * Copied verbatim (byte for byte): `schema/**`, `samples/**`, `LICENSE.md`, `README.md`. Files
 * under libs/ocf/schema and libs/ocf/samples that the source no longer has are deleted. Derived
 * from the copy and written beside it:
 *   - `VERSION`: the OCF version, i.e. the `const` of `ocf_version` in
 *     schema/files/OCFManifestFile.schema.json (the version a manifest of these schemas must
 *     declare), and where the files come from;
 *   - `SHA256SUMS`: the digest of every vendored file (`cd libs/ocf && sha256sum -c SHA256SUMS`),
 *     which the unit tests check, so a hand edit of the vendored copy fails `npm test`;
 *   - `ocf-types.ts`: the file types and object types of the schemas' enums as const arrays.
 * A file whose content is already right is not rewritten (its mtime stays), so a second run
 * changes nothing.
 */
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  rmdirSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

const root = join(__dirname, '..');
const target = join(root, 'libs', 'ocf');
/** The vendored folders: mirrored (extra files deleted). */
const MIRRORED_DIRS = ['schema', 'samples'];
/** The vendored single files. */
const COPIED_FILES = ['LICENSE.md', 'README.md'];
const MANIFEST_SCHEMA = 'schema/files/OCFManifestFile.schema.json';
const FILE_TYPE_SCHEMA = 'schema/enums/FileType.schema.json';
const OBJECT_TYPE_SCHEMA = 'schema/enums/ObjectType.schema.json';

interface Options {
  check: boolean;
  source: string;
  /** True when the source was named with --from (then a missing source is an error). */
  explicit: boolean;
}

function parseArgs(argv: string[]): Options {
  const options: Options = {
    check: false,
    source: join(root, '..', 'shared', 'ocf'),
    explicit: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--check') options.check = true;
    else if (arg === '--from' && argv[i + 1]) {
      options.source = resolve(argv[++i]);
      options.explicit = true;
    } else if (arg.startsWith('--from=')) {
      options.source = resolve(arg.slice('--from='.length));
      options.explicit = true;
    } else {
      console.error(`vendor-ocf: unknown argument ${arg}`);
      console.error('usage: npm run ocf:vendor [-- --check] [-- --from DIR]');
      process.exit(2);
    }
  }
  return options;
}

/** Every file under `dir`, as paths relative to `base` with forward slashes, sorted. */
function filesUnder(dir: string, base: string): string[] {
  if (!existsSync(dir)) return [];
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...filesUnder(path, base));
    else if (statSync(path).isFile()) found.push(relative(base, path).split(sep).join('/'));
  }
  return found.sort();
}

function sha256(content: Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}

function stringEnum(content: Buffer, file: string): string[] {
  const schema = JSON.parse(content.toString('utf8')) as { enum?: unknown };
  if (!Array.isArray(schema.enum) || !schema.enum.every((v) => typeof v === 'string')) {
    throw new Error(`${file} has no enum of strings`);
  }
  return schema.enum as string[];
}

function ocfVersion(content: Buffer): string {
  const schema = JSON.parse(content.toString('utf8')) as {
    properties?: { ocf_version?: { const?: unknown } };
  };
  const version = schema.properties?.ocf_version?.const;
  if (typeof version !== 'string' || !version) {
    throw new Error(`${MANIFEST_SCHEMA} does not fix ocf_version with a const`);
  }
  return version;
}

function versionFile(version: string, manifestId: string): string {
  return [
    version,
    '',
    '# The Open Cap Format version of the schemas in schema/: the `const` of `ocf_version` in',
    `# ${MANIFEST_SCHEMA} (${manifestId}),`,
    '# i.e. the version a manifest valid against these schemas declares.',
    '# Source: the Open Cap Format schemas and samples of the Open Cap Table Coalition',
    '# (https://github.com/Open-Cap-Table-Coalition/Open-Cap-Format-OCF, branch `main` per the',
    '# $id of the schemas), copied unmodified from the shared OCF folder beside the repository',
    '# (shared/ocf) by `npm run ocf:vendor` (scripts/vendor-ocf.ts). Licence: LICENSE.md.',
    '# Generated: do not edit; SHA256SUMS lists the digest of every vendored file.',
    '',
  ].join('\n');
}

function constArray(name: string, values: string[]): string {
  return [`export const ${name} = [`, ...values.map((v) => `  '${v}',`), '] as const;'].join('\n');
}

function typesFile(fileTypes: string[], objectTypes: string[]): string {
  return [
    '/**',
    ' * Generated by `npm run ocf:vendor` (scripts/vendor-ocf.ts) from the vendored schemas: do not',
    ' * edit. OCF_FILE_TYPES is the enum of schema/enums/FileType.schema.json, OCF_OBJECT_TYPES the',
    ' * enum of schema/enums/ObjectType.schema.json, in the order of the schemas.',
    ' */',
    constArray('OCF_FILE_TYPES', fileTypes),
    '',
    'export type OcfFileType = (typeof OCF_FILE_TYPES)[number];',
    '',
    constArray('OCF_OBJECT_TYPES', objectTypes),
    '',
    'export type OcfObjectType = (typeof OCF_OBJECT_TYPES)[number];',
    '',
  ].join('\n');
}

/** What libs/ocf must contain (relative path → bytes), all read from the source folder. */
function desiredState(source: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const dir of MIRRORED_DIRS) {
    const rels = filesUnder(join(source, dir), source);
    if (!rels.length) throw new Error(`${join(source, dir)} is missing or empty`);
    for (const rel of rels) files.set(rel, readFileSync(join(source, rel)));
  }
  for (const rel of COPIED_FILES) {
    if (!existsSync(join(source, rel))) throw new Error(`${join(source, rel)} is missing`);
    files.set(rel, readFileSync(join(source, rel)));
  }
  const vendored = [...files.keys()].sort();

  const manifest = files.get(MANIFEST_SCHEMA);
  const fileTypes = files.get(FILE_TYPE_SCHEMA);
  const objectTypes = files.get(OBJECT_TYPE_SCHEMA);
  if (!manifest || !fileTypes || !objectTypes) {
    throw new Error(
      `${source} lacks ${MANIFEST_SCHEMA}, ${FILE_TYPE_SCHEMA} or ${OBJECT_TYPE_SCHEMA}`,
    );
  }
  const manifestId = (JSON.parse(manifest.toString('utf8')) as { $id: string }).$id;
  files.set('VERSION', Buffer.from(versionFile(ocfVersion(manifest), manifestId)));
  files.set(
    'SHA256SUMS',
    Buffer.from(vendored.map((rel) => `${sha256(files.get(rel)!)}  ${rel}\n`).join('')),
  );
  files.set(
    'ocf-types.ts',
    Buffer.from(
      typesFile(
        stringEnum(fileTypes, FILE_TYPE_SCHEMA),
        stringEnum(objectTypes, OBJECT_TYPE_SCHEMA),
      ),
    ),
  );
  return files;
}

interface Plan {
  write: string[];
  remove: string[];
  unchanged: number;
}

function plan(desired: Map<string, Buffer>): Plan {
  const result: Plan = { write: [], remove: [], unchanged: 0 };
  for (const [rel, content] of desired) {
    const path = join(target, rel);
    if (existsSync(path) && readFileSync(path).equals(content)) result.unchanged++;
    else result.write.push(rel);
  }
  for (const dir of MIRRORED_DIRS) {
    for (const rel of filesUnder(join(target, dir), target)) {
      if (!desired.has(rel)) result.remove.push(rel);
    }
  }
  return result;
}

/** Removes the empty folders left under `dir` (not `dir` itself). */
function pruneEmptyDirs(dir: string): void {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const path = join(dir, entry.name);
    pruneEmptyDirs(path);
    if (readdirSync(path).length === 0) rmdirSync(path);
  }
}

function main(): void {
  const options = parseArgs(process.argv.slice(2));
  const rel = relative(root, options.source);
  const shown = !rel || rel.startsWith(`..${sep}..`) || isAbsolute(rel) ? options.source : rel;
  if (!existsSync(options.source)) {
    if (options.check && !options.explicit) {
      console.log(`ocf:vendor --check skipped: no ${shown} beside the repository`);
      return;
    }
    console.error(`vendor-ocf: ${options.source} does not exist (use --from DIR)`);
    process.exit(2);
  }
  const desired = desiredState(options.source);
  const todo = plan(desired);

  if (options.check) {
    if (!todo.write.length && !todo.remove.length) {
      console.log(`libs/ocf matches ${shown} (${desired.size} files)`);
      return;
    }
    console.error(`libs/ocf differs from ${shown}; run \`npm run ocf:vendor\`:`);
    for (const rel of todo.write)
      console.error(`  ${existsSync(join(target, rel)) ? 'changed' : 'missing'}  ${rel}`);
    for (const rel of todo.remove) console.error(`  extra    ${rel}`);
    process.exit(1);
  }

  for (const rel of todo.write) {
    const path = join(target, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, desired.get(rel)!);
  }
  for (const rel of todo.remove) rmSync(join(target, rel));
  for (const dir of MIRRORED_DIRS) pruneEmptyDirs(join(target, dir));
  const version = desired.get('VERSION')!.toString('utf8').split('\n')[0];
  console.log(
    `libs/ocf: OCF ${version} from ${shown}: ${todo.write.length} written, ` +
      `${todo.remove.length} deleted, ${todo.unchanged} unchanged`,
  );
}

main();
