import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AggregateRepository } from '../../database';
import { ReferredCompany } from './referred-company.entity';

@Injectable()
export class CompaniesRepository extends AggregateRepository<ReferredCompany> {
  constructor(@InjectRepository(ReferredCompany) companies: Repository<ReferredCompany>) {
    super(companies);
  }

  /** The caller's earlier referral of the same company: same website, or same contact. */
  findSame(userId: string, websiteKey: string | null, contactEmail: string) {
    return this.repository.findOne({
      where: [...(websiteKey ? [{ userId, websiteKey }] : []), { userId, contactEmail }],
      order: { created: 'ASC' },
    });
  }

  /** Adds it unless an equal one was added meanwhile (then null). */
  async addNew(company: Omit<ReferredCompany, 'id' | 'created'>): Promise<ReferredCompany | null> {
    const result = await this.repository
      .createQueryBuilder()
      .insert()
      .into(ReferredCompany)
      .values(company)
      .orIgnore()
      .returning('*')
      .execute();
    const [row] = result.raw as { id: string }[];
    return row ? this.repository.findOneBy({ id: row.id }) : null;
  }
}
