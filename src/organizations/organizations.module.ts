import { MiddlewareConsumer, Global, Module, NestModule, RequestMethod } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PERMISSION_CHECKER } from '../common/http/access.guard';
import { multipartMiddleware } from '../common/http/multipart.middleware';
import { MailModule } from '../mail/mail.module';
import { Address } from './addresses/address.entity';
import { AddressesController } from './addresses/addresses.controller';
import { AddressesService } from './addresses/addresses.service';
import { LegalEntity } from './entities/legal-entity.entity';
import { Invitation } from './invitations/invitation.entity';
import { Member } from './members/member.entity';
import { MemberUploadService } from './members/member-upload.service';
import { MembersController } from './members/members.controller';
import { MembersService } from './members/members.service';
import { OrganizationRecords } from './organization-records';
import { Organization } from './organizations/organization.entity';
import { OrganizationsController } from './organizations/organizations.controller';
import { OrganizationsService } from './organizations/organizations.service';
import { PermissionService } from './permissions/permission.service';
import { RecordResolvers } from './permissions/record-resolvers';
import { PersonalRecordsService } from './personal-records.service';
import { Profile } from './profiles/profile.entity';
import { ProfilesController } from './profiles/profiles.controller';
import { ProfilesService } from './profiles/profiles.service';
import { Role } from './roles/role.entity';
import { RolesController } from './roles/roles.controller';
import { RolesService } from './roles/roles.service';
import { SiteAdmin } from './site-admin/site-admin.entity';
import { SiteAdminController } from './site-admin/site-admin.controller';
import { SiteAdminService } from './site-admin/site-admin.service';

const MEMBER_UPLOAD_LIMIT_BYTES = 10 * 1024 * 1024;

/**
 * Organizations, members, roles, entities, profiles, addresses and the permission guard's
 * decisions. Global: every module's routes are guarded by the PermissionService, and every module
 * registers its records with RecordResolvers.
 */
@Global()
@Module({
  imports: [
    TypeOrmModule.forFeature([
      LegalEntity,
      Profile,
      Organization,
      Member,
      Role,
      Invitation,
      Address,
      SiteAdmin,
    ]),
    MailModule,
  ],
  controllers: [
    OrganizationsController,
    MembersController,
    RolesController,
    ProfilesController,
    AddressesController,
    SiteAdminController,
  ],
  providers: [
    PersonalRecordsService,
    RecordResolvers,
    PermissionService,
    { provide: PERMISSION_CHECKER, useExisting: PermissionService },
    OrganizationRecords,
    OrganizationsService,
    MembersService,
    MemberUploadService,
    RolesService,
    ProfilesService,
    AddressesService,
    SiteAdminService,
  ],
  exports: [PersonalRecordsService, RecordResolvers, PermissionService, PERMISSION_CHECKER],
})
export class OrganizationsModule implements NestModule {
  configure(consumer: MiddlewareConsumer) {
    consumer
      .apply(multipartMiddleware(MEMBER_UPLOAD_LIMIT_BYTES))
      .forRoutes({ path: 'v1/organization/member/upload', method: RequestMethod.POST });
  }
}
