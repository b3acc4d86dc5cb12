import { createHash } from 'node:crypto';

/**
 * The ids the export makes up, all derived from ids of ours, so that exporting the same log twice
 * gives the same package. OCF needs securities and transactions the ledger does not record as
 * such: the balance of a partial transfer, and the stock issuances of the securities that
 * transfers, exercises and conversions create (OCF names a holder only on an issuance).
 *
 * The rule: UUID version 5 (RFC 9562, SHA-1) in the namespace below, of `<transaction id>:<role>`.
 */
export const OCF_ID_NAMESPACE = '5b0c8e62-7a53-4c1e-9d2f-0c6f4f1d2a91';

export type DerivedRole =
  /** The security holding what a partial transfer left with the transferor. */
  | 'balance'
  /** The TX_STOCK_ISSUANCE of that balance security to the transferor. */
  | 'balance-issuance'
  /** The TX_STOCK_ISSUANCE of the security a transfer, exercise or conversion created. */
  | 'resulting-issuance'
  /** The TX_VESTING_START of a grant with vesting terms. */
  | 'vesting-start'
  /** The TX_STOCK_CLASS_AUTHORIZED_SHARES_ADJUSTMENT of the shares a split authorized. */
  | 'authorized-shares';

function bytesOf(uuid: string): Buffer {
  return Buffer.from(uuid.replace(/-/g, ''), 'hex');
}

/** UUID version 5 of `name` in `namespace`. */
export function uuidV5(name: string, namespace = OCF_ID_NAMESPACE): string {
  const hash = createHash('sha1')
    .update(Buffer.concat([bytesOf(namespace), Buffer.from(name, 'utf8')]))
    .digest();
  const b = hash.subarray(0, 16);
  b[6] = (b[6] & 0x0f) | 0x50;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = b.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The id of what the export derives from transaction `transactionId` in `role`. */
export const derivedId = (transactionId: string, role: DerivedRole) =>
  uuidV5(`${transactionId}:${role}`);

/** The trigger through which a warrant is exercised (one per warrant). */
export const exerciseTriggerId = (holdingId: string) => `${holdingId}.EXERCISE`;
/** The trigger through which a SAFE or note converts (one per convertible). */
export const conversionTriggerId = (holdingId: string) => `${holdingId}.CONVERSION`;
/** The first condition of every exported vesting terms object (its TX_VESTING_START names it). */
export const VESTING_START_CONDITION = 'vesting-start';
