/**
 * Cross-checks the code against the interface specification the service was built from, when a
 * copy sits beside the repository (`../shared/spec/service-spec.md`, or SPEC_PATH). It is where
 * the contract came from; the repository's tests do not need it. Run by .ci/run when present.
 *   - every application error key of section 7 is in the error catalogue with its wire value and
 *     status 400, and every "other server error key" is in it;
 *   - every permission name the spec uses is in the permission table (extra ones are listed);
 *   - every route of the section 4 tables that the service serves declares the permission the
 *     table names (rows with "—" leave the choice to us).
 */
import 'reflect-metadata';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_CATALOGUE, RouteEntry, routesOf } from '../src/common';
import { OWN_PERMISSIONS, PERMISSIONS } from '../src/organizations';

const specPath =
  process.argv[2] ?? join(__dirname, '..', '..', 'shared', 'spec', 'service-spec.md');

function main() {
  if (!existsSync(specPath)) {
    console.log(`spec:check skipped: no specification at ${specPath}`);
    return;
  }
  const spec = readFileSync(specPath, 'utf8');
  const problems: string[] = [];

  const table = spec.slice(
    spec.indexOf('Application error keys'),
    spec.indexOf('Other server error keys'),
  );
  const rows = [...table.matchAll(/^\| (\w+) \| (\w+) \| /gm)].map((m) => [m[1], m[2]] as const);
  if (rows.length === 0) problems.push('found no application error keys in section 7');
  const catalogue = ERROR_CATALOGUE as Record<string, { wire: string; status: number }>;
  for (const [key, wire] of rows) {
    const entry = catalogue[key];
    if (!entry) problems.push(`error key ${key} is missing from the catalogue`);
    else if (entry.wire !== wire || entry.status !== 400) {
      problems.push(
        `error key ${key}: catalogue has ${entry.wire}/${entry.status}, spec ${wire}/400`,
      );
    }
  }
  const others = spec.slice(spec.indexOf('Other server error keys'));
  const otherKeys = [...others.split('\n')[0].matchAll(/`(\w+)`/g)].map((m) => m[1]);
  for (const key of otherKeys) {
    if (!catalogue[key]) problems.push(`server error key ${key} is missing from the catalogue`);
  }

  const used = new Set([...spec.matchAll(/`(can[A-Za-z]+(\(Addresses\))?)`/g)].map((m) => m[1]));
  const ours = PERMISSIONS as readonly string[];
  for (const p of used)
    if (!ours.includes(p)) problems.push(`permission ${p} is missing from the table`);
  const extra = ours.filter((p) => !used.has(p));
  const undeclared = extra.filter((p) => !OWN_PERMISSIONS.has(p));
  for (const p of undeclared)
    problems.push(`permission ${p} is not in the spec and not declared as our own`);

  const served = servedRoutes();
  const permissionRows = [
    ...spec.matchAll(
      /^\| (GET|POST|PUT|PATCH|DELETE) \| `([^`]+)` \| `(can[A-Za-z]+(?:\(Addresses\))?)` \|/gm,
    ),
  ];
  let compared = 0;
  for (const [, method, path, permission] of permissionRows) {
    const route = served.get(`${method} ${path}`);
    if (!route) continue;
    compared++;
    const declared =
      route.access?.kind === 'permission' ? route.access.permission : route.access?.kind;
    if (declared !== permission) {
      problems.push(
        `${method} ${path}: the spec says ${permission}, the route declares ${declared}`,
      );
    }
  }

  if (problems.length) {
    console.error(`spec:check against ${specPath}:\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  console.log(
    `spec:check: ${rows.length + otherKeys.length} error keys, ${used.size} permissions and the permissions of ${compared} routes agree with ${specPath}` +
      (extra.length ? ` (our own permissions: ${extra.join(', ')})` : ''),
  );
}

/** The routes of every controller under src, by `METHOD /path`. */
function servedRoutes(): Map<string, RouteEntry> {
  const routes = new Map<string, RouteEntry>();
  const visit = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const file = join(dir, name);
      if (statSync(file).isDirectory()) visit(file);
      else if (name.endsWith('.controller.ts')) {
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const exports = require(file) as Record<string, unknown>;
        for (const value of Object.values(exports)) {
          if (typeof value !== 'function') continue;
          for (const r of routesOf(value as new (...args: never[]) => unknown))
            routes.set(`${r.method} ${r.path}`, r);
        }
      }
    }
  };
  visit(join(__dirname, '..', 'src'));
  return routes;
}

main();
