import { isUUID } from 'class-validator';
import { EntityManager, IsNull } from 'typeorm';
import { HttpError } from '../../common/errors/app-error';
import { BUILT_IN_ROLES } from '../permissions/permissions';
import { Role } from './role.entity';

/** A role given by id or by name (built-in or the organization's own); 400 when none matches. */
export async function findRole(
  m: EntityManager,
  organizationId: string,
  ref: string,
): Promise<Role> {
  if (isUUID(ref)) {
    const byId = await m.findOne(Role, {
      where: [
        { id: ref, organizationId },
        { id: ref, organizationId: IsNull() },
      ],
    });
    if (byId) return byId;
    throw HttpError.badRequest(`role ${ref} does not exist in this organization`);
  }
  const builtIn = BUILT_IN_ROLES.find(
    (r) => r.name.toLowerCase() === ref.toLowerCase() || r.key === ref.toLowerCase(),
  );
  if (builtIn) return m.findOneByOrFail(Role, { id: builtIn.id });
  const custom = await m
    .getRepository(Role)
    .createQueryBuilder('r')
    .where('r.organization_id = :organizationId AND lower(r.name) = lower(:ref)', {
      organizationId,
      ref,
    })
    .getOne();
  if (!custom) throw HttpError.badRequest(`role "${ref}" does not exist in this organization`);
  return custom;
}
