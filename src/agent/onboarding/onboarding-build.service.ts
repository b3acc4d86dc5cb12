import { Injectable } from '@nestjs/common';
import { LedgerWriter } from '../../cap-table';
import { AccessContext, Clock, DomainError } from '../../common';
import { allowLongStatements } from '../../database';
import { Tx, UnitOfWork } from '../../events';
import { OcfImportService, type OcfImportResult } from '../../ocf';
import { OrganizationsService, type OrganizationView } from '../../organizations';
import { draftPackage, withDefaults, type DraftTotals, type OnboardingDraft } from './draft';
import { checkStored } from './onboarding-check';
import type { BuildView } from './onboarding.view';
import type { AgentOnboarding } from './store/onboarding.entity';
import { Onboardings } from './store/onboardings';
import { plainDraft, storeDraft, type StoredDraft } from './store/stored-draft';
import { labelOf } from './onboarding-showcase';

/**
 * Builds the organization from the onboarding's draft, with no model call: in one transaction
 * the organization is created with the caller as its Owner, and its cap table written as the OCF
 * import writes a package (the draft is one, in memory: stakeholders become members, every
 * transaction goes through the ledger writer and its rules, the events are recorded). The
 * onboarding row is locked throughout and records the result in the same transaction, so a
 * repeated or concurrent build answers the organization already built and creates nothing.
 */
@Injectable()
export class OnboardingBuilder {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly store: Onboardings,
    private readonly organizations: OrganizationsService,
    private readonly ledger: LedgerWriter,
    private readonly ocf: OcfImportService,
    private readonly clock: Clock,
  ) {}

  /**
   * `defaults`: the "just set it up" path: open questions do not hold it back and what the draft
   * lacks is filled with defaults. Otherwise a required open question is 409.
   */
  build(
    userId: string,
    onboardingId: string,
    assertMine: (row: AgentOnboarding) => void,
    defaults: boolean,
  ): Promise<BuildView> {
    return this.uow.run(async (tx) => {
      const row = await this.store.lock(tx.manager, onboardingId);
      assertMine(row);
      if (row.organizationId && row.setupResult) {
        return { organizationId: row.organizationId, setupResult: row.setupResult };
      }
      if (row.status !== 'analyzed' || !row.draft) {
        throw DomainError.conflict(
          row.status === 'failed'
            ? `the analysis failed (${row.analysisError ?? 'no draft'}): analyze again`
            : 'the analysis is not finished yet',
        );
      }
      const open = row.questions.filter((q) => q.required && q.answer === null);
      if (!defaults && open.length) {
        throw DomainError.conflict(
          `${open.length} required question${open.length === 1 ? ' is' : 's are'} unanswered`,
        );
      }
      const stored = defaults ? this.withDefaults(row) : row.draft;
      const { problems, totals } = checkStored(stored, this.clock.today());
      if (problems.length) {
        throw DomainError.keyed(
          'invalidFields',
          `the draft cannot be built (${problems.length} problem${problems.length === 1 ? '' : 's'}); correct it or analyze again`,
          {
            body: {
              problems: problems.map((p) => ({
                itemId: p.item.itemId,
                label: labelOf(stored, p.item.itemId),
                fieldPath: p.fieldPath,
                reason: p.reason,
              })),
            },
          },
        );
      }
      const draft = plainDraft(stored) as unknown as OnboardingDraft;
      const organization = await this.organizations.createIn(tx, userId, {
        // checkStored refuses a draft without a name.
        name: draft.organization.name!,
        legalName: draft.organization.legal_name,
        country: draft.organization.country_of_formation,
        currency: draft.organization.currency,
        type: draft.organization.entity_type,
      });
      const imported = await this.writeCapTable(tx, userId, organization, draft);
      row.draft = stored;
      row.status = 'built';
      row.organizationId = organization.id;
      row.setupResult = setupResult(organization, imported, totals);
      row.welcomeMessage = welcome(organization, totals);
      await this.store.save(tx.manager, row);
      return { organizationId: organization.id, setupResult: row.setupResult };
    });
  }

  private withDefaults(row: AgentOnboarding): StoredDraft {
    const draft = plainDraft(row.draft!) as unknown as OnboardingDraft;
    const filled = withDefaults(draft, { email: row.email, today: this.clock.today() });
    return storeDraft(filled.draft as unknown as Record<string, unknown>, row.draft, 'default');
  }

  private writeCapTable(
    tx: Tx,
    userId: string,
    organization: OrganizationView,
    draft: OnboardingDraft,
  ): Promise<OcfImportResult> {
    const access: AccessContext = {
      userId,
      organizationId: organization.id,
      organization: {
        id: organization.id,
        type: organization.type,
        currency: organization.currency,
      },
      memberId: null,
      roleId: null,
      scope: 'all',
      permissions: new Set(),
      versions: {},
    };
    const pkg = draftPackage(draft, { today: this.clock.today() });
    return this.ledger.changeIn(
      tx,
      organization.id,
      userId,
      {},
      async (c) => {
        await allowLongStatements(tx);
        return this.ocf.write(c, access, pkg, []);
      },
      // The organization was made in this transaction: its whole cap table is this change's.
      { wholeCapTable: true },
    );
  }
}

function setupResult(
  organization: OrganizationView,
  imported: OcfImportResult,
  totals: DraftTotals,
): Record<string, unknown> {
  return {
    organizationId: organization.id,
    organizationName: organization.name,
    created: totals.counts,
    membersCreated: imported.imported.membersCreated,
    membersMatched: imported.imported.membersMatched,
    ledgerTransactions: imported.imported.ledgerTransactions,
    sharesAuthorized: totals.sharesAuthorized,
    sharesIssued: totals.sharesIssued,
    optionsGranted: totals.optionsGranted,
    warnings: imported.warnings.map((w) => w.reason),
  };
}

function welcome(organization: OrganizationView, totals: DraftTotals): string {
  const c = totals.counts as Record<string, number>;
  const n = (count: number | undefined, one: string, many: string) =>
    `${count ?? 0} ${count === 1 ? one : many}`;
  return (
    `Welcome to Ledgerline! ${organization.name} is set up with ` +
    `${n(c.people, 'person', 'people')}, ${n(c.shareClasses, 'share class', 'share classes')}, ` +
    `${n(c.shareholdings, 'shareholding', 'shareholdings')} and ` +
    `${n(c.optionGrants, 'option grant', 'option grants')}. Review the cap table, then invite ` +
    'your team.'
  );
}
