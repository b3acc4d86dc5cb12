import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sourceTexts } from '../../../test/support/sources';
import {
  BUILT_IN_ROLES,
  NON_ROLE_PERMISSIONS,
  OWNER_ONLY_PERMISSIONS,
  PERMISSIONS,
  ROLE_PERMISSIONS,
} from './permissions';

const role = (key: string) => BUILT_IN_ROLES.find((r) => r.key === key)!;

/** Permissions of the spec whose routes arrive with later features. */
const RESERVED: Record<string, string> = {};

describe('the permission table', () => {
  const code = sourceTexts(join(__dirname, '..', '..')).join('\n');
  const used = new Set([
    // `@Permission(...)` on a route, or a route decorator made of one (`Permission(...)`).
    ...[...code.matchAll(/\bPermission\(\s*'([^']+)'/g)].map((m) => m[1]),
    ...[...code.matchAll(/permissions\.has\(\s*'([^']+)'/g)].map((m) => m[1]),
  ]);

  it('is what the routes use: no entry unused (besides reserved ones), none missing', () => {
    const table = PERMISSIONS as readonly string[];
    expect(table.filter((p) => !used.has(p) && !(p in RESERVED))).toEqual([]);
    expect([...used].filter((p) => !table.includes(p))).toEqual([]);
    expect(Object.keys(RESERVED).filter((p) => used.has(p))).toEqual([]);
  });

  it('gives the Owner every role permission and the owner-only ones', () => {
    expect([...role('owner').permissions].sort()).toEqual(
      [...ROLE_PERMISSIONS, ...OWNER_ONLY_PERMISSIONS].sort(),
    );
  });

  it('keeps owner-only permissions from every other role, built-in or custom', () => {
    for (const r of BUILT_IN_ROLES.filter((b) => b.key !== 'owner')) {
      expect(r.permissions.filter((p) => OWNER_ONLY_PERMISSIONS.has(p))).toEqual([]);
    }
    expect(ROLE_PERMISSIONS.filter((p) => OWNER_ONLY_PERMISSIONS.has(p))).toEqual([]);
  });

  it('gives Viewer and Shareholder no write permission', () => {
    for (const key of ['viewer', 'shareholder']) {
      expect(
        role(key).permissions.filter((p) => p.startsWith('canEdit') || p === 'canEdit'),
      ).toEqual([]);
    }
  });

  it('keeps the Shareholder to the organization itself (own records come from self rules)', () => {
    expect(role('shareholder').permissions).toEqual(['canViewOrganization']);
  });

  it('never grants ownership-decided permissions through a role', () => {
    for (const r of BUILT_IN_ROLES)
      expect(r.permissions.filter((p) => NON_ROLE_PERMISSIONS.has(p))).toEqual([]);
  });

  it('gives each built-in role a distinct fixed id', () => {
    expect(new Set(BUILT_IN_ROLES.map((r) => r.id)).size).toBe(BUILT_IN_ROLES.length);
  });

  it('is documented in docs/api.md as a table', () => {
    const readme = readFileSync(join(__dirname, '../../../docs/api.md'), 'utf8');
    for (const p of PERMISSIONS) expect(readme).toContain(`| \`${p}\` |`);
  });
});
