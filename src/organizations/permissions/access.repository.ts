import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AggregateRepository } from '../../database';
import { Member } from '../members/member.entity';
import { SiteAdmin } from '../site-admin/site-admin.entity';
import { AccessQuery, AccessRow } from './access-query';

/** The reads of the permission guard: one prepared query per request. */
@Injectable()
export class AccessRepository extends AggregateRepository<Member> {
  constructor(
    @InjectRepository(Member) members: Repository<Member>,
    @InjectRepository(SiteAdmin) private readonly siteAdmins: Repository<SiteAdmin>,
  ) {
    super(members);
  }

  async decide(query: AccessQuery): Promise<AccessRow | undefined> {
    const rows = await this.prepared<AccessRow>(query.sql, query.params);
    return rows[0];
  }

  isSiteAdmin(userId: string): Promise<boolean> {
    return this.siteAdmins.exists({ where: { userId } });
  }
}
