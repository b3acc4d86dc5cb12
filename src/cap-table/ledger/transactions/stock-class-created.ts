import { documentedView } from './definition';
import { Type, type Static } from '@sinclair/typebox';
import { SecurityRecord } from '../transaction-types';
import { randomUUID } from 'node:crypto';
import { toDecimal } from '../../../../libs/cap-math';
import { commandQuantity, decimalOrNull } from '../command-values';
import { assertFits } from '../rules';
import type { CommandContext, TransactionDefinition } from './definition';

/** What the log keeps of it: its payload's type, replay check and documentation. */
export const stockClassCreatedPayload = Type.Object({ security: SecurityRecord });

declare module '../transaction-types' {
  interface TransactionPayloads {
    STOCK_CLASS_CREATED: Static<typeof stockClassCreatedPayload>;
  }
}

/** A class as a caller gives it (`POST` or `PUT .../security`): omitted fields take defaults. */
export interface SecurityInput {
  name: string;
  classType: SecurityRecord['classType'];
  idPrefix: string;
  authorizedShares: string;
  parValue?: string | null;
  originalIssuePrice?: string | null;
  /** Default: the organization's currency. */
  currency?: string;
  seniority?: number;
  liquidationPreferenceMultiple?: string | null;
  participating?: boolean;
  participationCapMultiple?: string | null;
  conversionRatio?: string | null;
  votesPerShare?: string | null;
  boardApprovalDate?: string | null;
}

/** A class's fields as the log keeps them (canonical decimals), the omitted ones defaulted. */
export function securityFields(
  input: SecurityInput,
  context: CommandContext,
): Omit<SecurityRecord, 'id' | 'authorizedShares'> {
  return {
    name: input.name,
    classType: input.classType,
    idPrefix: input.idPrefix,
    parValue: decimalOrNull(input.parValue),
    originalIssuePrice: decimalOrNull(input.originalIssuePrice),
    currency: input.currency ?? context.organization.currency,
    seniority: input.seniority ?? 1,
    liquidationPreferenceMultiple: decimalOrNull(input.liquidationPreferenceMultiple),
    participating: input.participating ?? false,
    participationCapMultiple: decimalOrNull(input.participationCapMultiple),
    conversionRatio: decimalOrNull(input.conversionRatio) ?? '1',
    votesPerShare: decimalOrNull(input.votesPerShare) ?? '1',
    boardApprovalDate: input.boardApprovalDate ?? null,
  };
}

/** A share class (OCF StockClass). */
export const stockClassCreated: TransactionDefinition<'STOCK_CLASS_CREATED'> = {
  payload: stockClassCreatedPayload,
  definesRecord: true,
  // Written as an object once the log is read; with the shares authorized as created.
  ocf: {
    export: {
      from: 'replayed',
      map(_row, { security }, ctx) {
        ctx.initialAuthorized.set(security.id, security.authorizedShares);
        return [];
      },
    },
  },
  scope: () => ({}),
  validate(_state, { security }) {
    assertFits(toDecimal(security.authorizedShares), 'authorizedShares', 'authorizedShares');
  },
  command: {
    scope: () => ({}),
    prepare(_state, input: SecurityInput, context) {
      const authorizedShares = commandQuantity(input.authorizedShares, 'authorizedShares', context);
      const security = { id: randomUUID(), ...securityFields(input, context), authorizedShares };
      return { effectiveDate: security.boardApprovalDate ?? context.today, payload: { security } };
    },
  },
  event: {
    type: 'security.created',
    public: true,
    audience: 'canViewOrganization',
    object: documentedView('SecurityView'),
    async describe(facts) {
      const view = (await facts.view('securities', facts.payload.security.id)) as {
        name: string;
        authorizedShares: string;
      };
      return {
        object: view,
        description: `class ${view.name}: created with ${view.authorizedShares} authorized shares`,
      };
    },
  },
  apply(state, { security }) {
    const { authorizedShares, ...rest } = security;
    state.put('securities', {
      ...rest,
      authorized: toDecimal(authorizedShares),
      issued: toDecimal(0),
      reserved: toDecimal(0),
      deleted: false,
      nextCertificateNumber: 1,
      nextShareNumber: toDecimal(1),
    });
  },
  // Classes logged before the fields existed are not participating, so have no cap either.
  upgrade: (p) => ({
    security: {
      ...p.security,
      participating: p.security.participating ?? false,
      participationCapMultiple: p.security.participationCapMultiple ?? null,
    },
  }),
};
