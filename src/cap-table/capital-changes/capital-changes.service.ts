import { Injectable } from '@nestjs/common';
import { AccessContext } from '../../common';
import { OrganizationsDirectory } from '../../organizations';
import { LedgerWriter } from '../ledger/ledger-writer';
import type { AmendCapitalChangeInput } from '../ledger/transactions/capital-change-amended';
import type { CapitalChangeInput } from '../ledger/transactions/capital-change-recorded';
import { CreateCapitalChangeDto, UpdateCapitalChangeDto } from './capital-change.dto';
import { CapitalChangeView } from './capital-change.view';

/**
 * Capital contributions and distributions of members' entities, recorded in the log: each a
 * command of the ledger, whose definition holds its rules and its event. What is left here is
 * the member the body names, read from the organization.
 */
@Injectable()
export class CapitalChangesService {
  constructor(
    private readonly ledger: LedgerWriter,
    private readonly organizations: OrganizationsDirectory,
  ) {}

  async create(
    access: AccessContext,
    entityId: string,
    dto: CreateCapitalChangeDto,
  ): Promise<CapitalChangeView> {
    const input: CapitalChangeInput = {
      member: await this.organizations.member(access.organizationId!, dto.member),
      entityId,
      date: dto.date,
      amount: dto.amount,
      currency: dto.currency,
      type: dto.type,
      description: dto.description,
    };
    const { answer } = await this.ledger.execute('CAPITAL_CHANGE_RECORDED', input, access, (o) =>
      o.view('capitalChanges', o.payload!.capitalChange.id),
    );
    return answer as CapitalChangeView;
  }

  async update(
    access: AccessContext,
    entityId: string,
    dto: UpdateCapitalChangeDto,
  ): Promise<CapitalChangeView> {
    const input: AmendCapitalChangeInput = {
      capitalChangeId: dto.id,
      entityId,
      date: dto.date,
      amount: dto.amount,
      currency: dto.currency,
      type: dto.type,
      description: dto.description,
    };
    const { answer } = await this.ledger.execute('CAPITAL_CHANGE_AMENDED', input, access, (o) =>
      o.view('capitalChanges', dto.id),
    );
    return answer as CapitalChangeView;
  }
}
