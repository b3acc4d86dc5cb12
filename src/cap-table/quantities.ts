import { isWholeNumber, toDecimal, toDecimalString } from '../../libs/cap-math';
import { DomainError, type OrganizationInContext } from '../common';

/** Fractional units are an LLC's; a corporation issues whole shares. */
export const fractionalAllowed = (organization: Pick<OrganizationInContext, 'type'>) =>
  organization.type === 'llc';

/** The canonical text of a quantity, refused (400 naming the field) when it must be whole. */
export function quantity(
  value: string,
  field: string,
  organization: Pick<OrganizationInContext, 'type'>,
): string {
  const d = toDecimal(value);
  if (!fractionalAllowed(organization) && !isWholeNumber(d)) {
    throw DomainError.badRequest(
      `${field} must be a whole number of shares (fractional units are for LLCs)`,
      { body: { field } },
    );
  }
  return toDecimalString(d);
}

/** The canonical text of a price or amount (`1.50` → `1.5`), null kept. */
export const decimalText = (value: string | null | undefined): string | null =>
  value === undefined || value === null ? null : toDecimalString(toDecimal(value));
