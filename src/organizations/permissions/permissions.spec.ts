import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUILT_IN_ROLES, NON_ROLE_PERMISSIONS, PERMISSIONS, ROLE_PERMISSIONS } from './permissions';

const role = (key: string) => BUILT_IN_ROLES.find((r) => r.key === key)!;

describe('the permission table', () => {
  it('names every permission the spec uses', () => {
    const spec = readFileSync(join(__dirname, '../../../../shared/spec/service-spec.md'), 'utf8');
    const used = new Set([...spec.matchAll(/`(can[A-Za-z]+(\(Addresses\))?)`/g)].map((m) => m[1]));
    expect([...used].filter((p) => !(PERMISSIONS as readonly string[]).includes(p))).toEqual([]);
  });

  it('gives the Owner every role permission', () => {
    expect([...role('owner').permissions].sort()).toEqual([...ROLE_PERMISSIONS].sort());
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

  it('is documented in the README as a table', () => {
    const readme = readFileSync(join(__dirname, '../../../README.md'), 'utf8');
    for (const p of PERMISSIONS) expect(readme).toContain(`| \`${p}\` |`);
  });
});
