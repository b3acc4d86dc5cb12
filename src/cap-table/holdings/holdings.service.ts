import { Injectable } from '@nestjs/common';
import { AccessContext } from '../../common';
import { OrganizationsDirectory } from '../../organizations';
import { holdingCancellation } from '../ledger/commands/holding-cancellation';
import { holdingCreation, type CreateHoldingInput } from '../ledger/commands/holding-creation';
import { LedgerWriter } from '../ledger/ledger-writer';
import type { AmendHoldingInput } from '../ledger/transactions/holding-amended';
import { AmendHoldingDto, CreateHoldingDto } from './holding.dto';
import type { HoldingView } from './holding.view';

/**
 * Granting, amending and cancelling holdings (option grants, RSUs, SARs, warrants, convertible
 * notes and SAFEs): each a command of the ledger (`LedgerWriter.run` or `execute`), whose
 * definitions hold the fields each type takes, the rules and the event: a grant never takes more
 * than its pool has available, an amended quantity never drops below what was exercised or
 * cancelled. What is left here is the holder's name for the event's description.
 */
@Injectable()
export class HoldingsService {
  constructor(
    private readonly ledger: LedgerWriter,
    private readonly organizations: OrganizationsDirectory,
  ) {}

  async create(access: AccessContext, dto: CreateHoldingDto): Promise<HoldingView> {
    const { organization: _organization, member, type, ...fields } = dto;
    const input: CreateHoldingInput = {
      type,
      memberId: member,
      memberName: (await this.organizations.member(access.organizationId!, member))?.name ?? null,
      fields,
    };
    const { answer } = await this.ledger.run(holdingCreation, input, access, (run) => {
      const { holding } = run.steps[0].payload as { holding: { id: string } };
      return run.view('holdings', holding.id);
    });
    return answer as HoldingView;
  }

  /** PATCH (`replace` false) or PUT (`replace` true) of the editable terms of an active holding. */
  async amend(
    access: AccessContext,
    id: string,
    dto: AmendHoldingDto,
    replace: boolean,
  ): Promise<HoldingView> {
    const input: AmendHoldingInput = { holdingId: id, replace, fields: dto };
    const { answer } = await this.ledger.execute('HOLDING_AMENDED', input, access, (o) =>
      o.view('holdings', id),
    );
    return answer as HoldingView;
  }

  /**
   * DELETE: the holding is cancelled (soft; it stays with status `cancelled`). A grant's
   * outstanding shares go back to its pool or leave the plan, as the plan's
   * defaultCancellationBehavior says. Answers the holding as it now stands (status `cancelled`).
   */
  async cancel(access: AccessContext, id: string): Promise<HoldingView> {
    const { answer } = await this.ledger.run(
      holdingCancellation,
      { holdingId: id },
      access,
      (run) => run.view('holdings', id),
    );
    return answer as HoldingView;
  }
}
