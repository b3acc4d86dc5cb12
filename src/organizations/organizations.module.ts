import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth';
import { PERMISSION_CHECKER } from '../common';
import { MailModule } from '../mail';
import { ProfilesModule } from '../profiles';
import { Invitation } from './invitations/invitation.entity';
import { InvitationRepository } from './invitations/invitation.repository';
import { InvitationsService } from './members/invitations.service';
import { MemberAdditionsService } from './members/member-additions.service';
import { MemberChangesService } from './members/member-changes.service';
import { HolderMembers } from './members/holder-members.service';
import { Member } from './members/member.entity';
import { MemberRepository } from './members/member.repository';
import { MembersController } from './members/members.controller';
import { MembersService } from './members/members.service';
import { UserInvitationsController } from './members/user-invitations.controller';
import { OrganizationsDirectory } from './directory/organizations.directory';
import { OrganizationRecords } from './organization-records';
import { Organization } from './organizations/organization.entity';
import { OrganizationDocumentsRegistry } from './organizations/organization-documents';
import { OrganizationRepository } from './organizations/organization.repository';
import { OrganizationsController } from './organizations/organizations.controller';
import { OrganizationsService } from './organizations/organizations.service';
import { SystemMembers } from './members/system-members.service';
import { AccessRepository } from './permissions/access.repository';
import { PermissionService } from './permissions/permission.service';
import { Role } from './roles/role.entity';
import { RoleLookup } from './roles/role-lookup';
import { RoleRepository } from './roles/role.repository';
import { RolesController } from './roles/roles.controller';
import { RolesService } from './roles/roles.service';
import { SiteAdminController } from './site-admin/site-admin.controller';
import { SiteAdminModule } from './site-admin/site-admin.module';

/**
 * Organizations, members, roles, invitations, site admins and the permission guard's decisions
 * (the PERMISSION_CHECKER every `@Permission` route is decided by). The record resolvers of all
 * modules are collected in the RecordResolvers registry provided here.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([Organization, Member, Role, Invitation]),
    AuthModule,
    ProfilesModule,
    MailModule,
    SiteAdminModule,
  ],
  controllers: [
    OrganizationsController,
    MembersController,
    UserInvitationsController,
    RolesController,
    SiteAdminController,
  ],
  providers: [
    OrganizationRepository,
    MemberRepository,
    RoleRepository,
    InvitationRepository,
    AccessRepository,
    PermissionService,
    { provide: PERMISSION_CHECKER, useExisting: PermissionService },
    OrganizationRecords,
    OrganizationsService,
    OrganizationDocumentsRegistry,
    MembersService,
    MemberAdditionsService,
    MemberChangesService,
    InvitationsService,
    RoleLookup,
    RolesService,
    OrganizationsDirectory,
    HolderMembers,
    SystemMembers,
  ],
  exports: [
    PERMISSION_CHECKER,
    OrganizationsDirectory,
    HolderMembers,
    OrganizationsService,
    OrganizationDocumentsRegistry,
    SystemMembers,
  ],
})
export class OrganizationsModule {}
