import { getSchemaPath } from '@nestjs/swagger';
import { documentSchemas } from '../../common';
import { documentEventObjects } from '../../events';
import { COMMANDS } from '../ledger/commands';
import { definitionOf, TRANSACTION_TYPES } from '../ledger/transactions';
import type { TransactionType } from '../ledger/transaction-types';
import { TransactionView } from './transaction.view';

/**
 * `GET .../transaction` documents each entry by its type: one component per type
 * (`Transaction_TX_STOCK_ISSUANCE`), the view with the type's payload schema from its definition,
 * and the list's items a `oneOf` of them discriminated by `type`. A new type is documented by its
 * definition alone.
 */
const schemaName = (type: TransactionType) => `Transaction_${type}`;
const ref = (type: TransactionType) => `#/components/schemas/${schemaName(type)}`;

documentSchemas(
  Object.fromEntries(
    TRANSACTION_TYPES.map((type) => [
      schemaName(type),
      {
        allOf: [
          { $ref: getSchemaPath(TransactionView) },
          {
            type: 'object',
            required: ['type', 'payload'],
            properties: {
              type: { type: 'string', enum: [type] },
              payload: definitionOf(type).payload,
            },
          },
        ],
      },
    ]),
  ),
);

/** An entry of the log, by its type. */
export const TRANSACTION_ITEM = {
  oneOf: TRANSACTION_TYPES.map((type) => ({ $ref: ref(type) })),
  discriminator: {
    propertyName: 'type',
    mapping: Object.fromEntries(TRANSACTION_TYPES.map((type) => [type, ref(type)])),
  },
};

/**
 * The objects of the ledger's public events, as their definitions (and commands) declare them,
 * for the published contract: one event type's object whichever type or command records it.
 */
documentEventObjects(
  Object.fromEntries(
    [...TRANSACTION_TYPES.map((type) => definitionOf(type).event), ...COMMANDS.map((c) => c.event)]
      .filter((event) => event?.public && event.object)
      .map((event) => [event!.type, event!.object!]),
  ),
);
