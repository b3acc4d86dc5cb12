import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { UsersModule } from '../../auth';
import { SiteAdmin } from './site-admin.entity';
import { SiteAdminService } from './site-admin.service';

/** Site administrators: what the CLI needs, without the HTTP side of the organizations module. */
@Module({
  imports: [TypeOrmModule.forFeature([SiteAdmin]), UsersModule],
  providers: [SiteAdminService],
  exports: [SiteAdminService, TypeOrmModule],
})
export class SiteAdminModule {}
