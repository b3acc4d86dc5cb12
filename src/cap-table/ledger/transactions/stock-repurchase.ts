import { Type, type Static } from '@sinclair/typebox';
import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';
import { compareDates, toDecimal, toDecimalString } from '../../../../libs/cap-math';
import { DateField, DecimalField } from '../../../common';
import { commandQuantity, decimalOrNull } from '../command-values';
import { LedgerRuleError } from '../ledger-state';
import { DateText, DecimalText, Id, Nullable } from '../payload-fields';
import { assertActive, positive, security, shareholding, takeLowest } from '../rules';
import type { TransactionDefinition, TransactionFacts } from './definition';
import { stockRepurchaseOcf } from './stock-repurchase.ocf';

/** What the log keeps of a repurchase: its payload's type, replay check and documentation. */
export const StockRepurchasePayload = Type.Object({
  shareholdingId: Id(),
  quantity: DecimalText(),
  pricePerShare: DecimalText({ description: 'The price paid per share, in `currency`.' }),
  currency: Type.String(),
  date: DateText(),
  consideration: Nullable(Type.String()),
});
export type StockRepurchasePayload = Static<typeof StockRepurchasePayload>;

declare module '../transaction-types' {
  interface TransactionPayloads {
    TX_STOCK_REPURCHASE: StockRepurchasePayload;
  }
}

declare module '../ledger-state' {
  interface ShareholdingEndings {
    repurchased: 'TX_STOCK_REPURCHASE';
  }
}

/** `POST .../shareholding/:shareholding/repurchase`. */
export class RepurchaseDto {
  /** The shares bought back: all of the shareholding, or part of it. */
  @DecimalField({ positive: true, example: '1000' })
  quantity: string;

  /** What the company pays per share, in the organization's currency. */
  @DecimalField({ example: '1.25' })
  pricePerShare: string;

  /** When the shares were bought back; default today. Not before the issue date. */
  @DateField({ optional: true })
  date?: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: 2000,
    example: 'Board consent of 2026-03-01',
  })
  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsString()
  @MaxLength(2000)
  consideration?: string | null;
}

/** A repurchase, and the shareholding after it. */
export class RepurchaseView {
  /** The ledger transaction. */
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: '1000' }) quantity: string;
  @ApiProperty({ example: '1.25' }) pricePerShare: string;
  @ApiProperty({ example: 'USD' }) currency: string;
  /** quantity × pricePerShare. */
  @ApiProperty({ example: '1250' }) amount: string;
  @ApiProperty({ format: 'date' }) date: string;
  @ApiProperty({ nullable: true, type: String }) consideration: string | null;
  /** The shareholding as it stands: the shares left, or `repurchased` with none. */
  @ApiProperty({ allOf: [{ $ref: getSchemaPath('ShareholdingView') }] })
  shareholding: object;
}

/** What the repurchase event carries of the repurchase beside the shareholding (its view's rest). */
const REPURCHASE_FACTS = {
  type: 'object',
  required: ['id', 'quantity', 'pricePerShare', 'currency', 'amount', 'date', 'consideration'],
  properties: {
    id: { type: 'string', format: 'uuid', description: 'The ledger transaction' },
    quantity: { type: 'string', example: '1000' },
    pricePerShare: { type: 'string', example: '1.25' },
    currency: { type: 'string', example: 'USD' },
    amount: { type: 'string', example: '1250', description: 'quantity × pricePerShare' },
    date: { type: 'string', format: 'date' },
    consideration: { type: 'string', nullable: true },
  },
};

interface RepurchaseInput extends RepurchaseDto {
  shareholdingId: string;
}

async function repurchaseView(facts: TransactionFacts<'TX_STOCK_REPURCHASE'>) {
  const p = facts.payload;
  return {
    id: facts.transactionId,
    quantity: p.quantity,
    pricePerShare: p.pricePerShare,
    currency: p.currency,
    amount: toDecimalString(toDecimal(p.quantity).times(p.pricePerShare)),
    date: p.date,
    consideration: p.consideration,
    shareholding: (await facts.view('shareholdings', p.shareholdingId)) as {
      certificateNumber: string;
      member: string;
    },
  };
}

/**
 * OCF TX_STOCK_REPURCHASE: the company buys shares of a shareholding back at a price, part or
 * all of it. The lowest-numbered shares go back to the class's unissued balance (retired); the
 * shareholding keeps the rest, as a transfer's source does (the OCF export writes it as the
 * balance security), or is `repurchased` when none are left.
 */
export const stockRepurchase: TransactionDefinition<'TX_STOCK_REPURCHASE'> = {
  payload: StockRepurchasePayload,
  definesRecord: false,
  endsShareholdingAs: {
    status: 'repurchased',
    certificateMark: 'CANCELLED (REPURCHASED)',
    certificateNote:
      'CANCELLED (REPURCHASED): every share of this certificate was bought back by the company.',
  },
  ocf: stockRepurchaseOcf,
  refers: { source: ['shareholdingId'] },
  scope: (p) => ({ shareholdings: [p.shareholdingId] }),
  command: {
    scope: (input: RepurchaseInput) => ({ shareholdings: [input.shareholdingId] }),
    prepare: (_state, input: RepurchaseInput, context) => {
      const date = input.date ?? context.today;
      return {
        effectiveDate: date,
        payload: {
          shareholdingId: input.shareholdingId,
          quantity: commandQuantity(input.quantity, 'quantity', context),
          pricePerShare: decimalOrNull(input.pricePerShare)!,
          currency: context.organization.currency,
          date,
          consideration: input.consideration ?? null,
        },
      };
    },
  },
  validate(state, p) {
    const h = shareholding(state, p.shareholdingId);
    assertActive(h);
    if (compareDates(p.date, h.issueDate) < 0) {
      throw new LedgerRuleError(
        'invalid',
        `date must not be before the issue date ${h.issueDate}`,
        'date',
      );
    }
    if (toDecimal(p.pricePerShare).isNegative()) {
      throw new LedgerRuleError('invalid', 'pricePerShare must not be negative', 'pricePerShare');
    }
    const quantity = positive(p.quantity, 'quantity');
    if (quantity.gt(h.quantity)) {
      throw new LedgerRuleError(
        'insufficientShares',
        `shareholding ${h.certificateNumber} holds ${toDecimalString(h.quantity)}, less than ${p.quantity}`,
      );
    }
  },
  apply(state, p) {
    const h = shareholding(state, p.shareholdingId);
    const s = security(state, h.securityId);
    const quantity = positive(p.quantity, 'quantity');
    s.issued = s.issued.minus(quantity);
    h.quantity = h.quantity.minus(quantity);
    if (h.quantity.isZero()) h.status = 'repurchased';
    // The bought-back numbers are retired, the lowest first (as a transfer moves them).
    const [, kept] = takeLowest(state.blocks.get(h.id) ?? [], quantity);
    state.putBlocks(h.id, kept);
    state.put('shareholdings', h);
    state.put('securities', s);
  },
  event: {
    type: 'shareholding.repurchased',
    public: true,
    audience: 'canViewCapitalizationOrSelf',
    object: () => ({
      allOf: [
        { $ref: getSchemaPath('ShareholdingView') },
        {
          type: 'object',
          required: ['repurchase'],
          properties: { repurchase: REPURCHASE_FACTS },
        },
      ],
    }),
    // The resource is the shareholding (as its route shows it), with the repurchase that changed
    // it, as a split's event carries its class with the split.
    async describe(facts) {
      const { shareholding, ...repurchase } = await repurchaseView(facts);
      const view = { ...repurchase, shareholding };
      const p = facts.payload;
      return {
        object: { ...shareholding, repurchase },
        subjects: [shareholding.member],
        description: `shareholding ${view.shareholding.certificateNumber}: ${p.quantity} shares repurchased at ${p.pricePerShare} ${p.currency} (${view.amount} ${p.currency})`,
      };
    },
  },
  http: {
    method: 'POST',
    path: 'organization/:organization/shareholding/:shareholding/repurchase',
    permission: 'canEditCapTable',
    target: { record: 'shareholding', param: 'shareholding' },
    status: 201,
    summary: 'Buy shares of a shareholding back (a stock repurchase transaction)',
    description:
      'Part or all of an active shareholding, at a price per share in the organization’s currency. ' +
      'The shares return to the class’s unissued balance; the shareholding keeps the rest, or is `repurchased`. ' +
      '`insufficientShares` for more than it holds; a date before its issue date is 400; a shareholding that is not active is 409. ' +
      'Records `shareholding.repurchased`.',
    body: RepurchaseDto,
    example: { quantity: '10', pricePerShare: '1.25' },
    input: (body, params) => ({ ...(body as RepurchaseDto), shareholdingId: params.shareholding }),
    answer: RepurchaseView,
    respond: (outcome) => repurchaseView(outcome as TransactionFacts<'TX_STOCK_REPURCHASE'>),
    errors: ['insufficientShares'],
    conflict: 'The shareholding is voided, transferred or repurchased: not active',
  },
};
