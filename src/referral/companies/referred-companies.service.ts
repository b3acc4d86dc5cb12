import { Injectable } from '@nestjs/common';
import { ReferredCompany } from '../store/referred-company.entity';
import { CompaniesRepository } from '../store/companies.repository';
import { ReferCompanyDto, ReferredCompanyView } from './company.dto';

/** `acme.example`, `https://WWW.Acme.Example/about` → `acme.example`: what "the same website" means. */
export function websiteKey(website: string | undefined): string | null {
  if (!website) return null;
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(website) ? website : `https://${website}`);
    return (
      url.hostname
        .toLowerCase()
        .replace(/^www\./, '')
        .replace(/\.$/, '') || null
    );
  } catch {
    return null;
  }
}

const toView = (c: ReferredCompany): ReferredCompanyView => ({
  id: c.id,
  name: c.name,
  website: c.website,
  contactEmail: c.contactEmail,
  note: c.note,
  created: c.created.toISOString(),
});

/**
 * Companies users refer. A user's second referral of the same company (same website or contact)
 * answers their first; another user's referral of it is their own record (never shown to them).
 */
@Injectable()
export class ReferredCompanies {
  constructor(private readonly companies: CompaniesRepository) {}

  async refer(
    userId: string,
    dto: ReferCompanyDto,
  ): Promise<{ company: ReferredCompanyView; created: boolean }> {
    const key = websiteKey(dto.website);
    const same = () => this.companies.findSame(userId, key, dto.contactEmail);
    const existing = await same();
    if (existing) return { company: toView(existing), created: false };
    const added = await this.companies.addNew({
      userId,
      name: dto.name,
      website: dto.website ?? null,
      websiteKey: key,
      contactEmail: dto.contactEmail,
      note: dto.note || null,
    });
    if (added) return { company: toView(added), created: true };
    // Added by a concurrent request of the same user.
    return { company: toView((await same())!), created: false };
  }
}
