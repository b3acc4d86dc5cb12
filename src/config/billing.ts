import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, IsUrl, Matches, Max, Min, MinLength } from 'class-validator';
import { configSlice } from './slice';
import { blankTo, emptyToUndefined, integer, urlOpts } from './variable-rules';

/** The billing provider (Maxio Advanced Billing): configured when the URL and the API key are set. */
export class BillingConfig {
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl(urlOpts, {
    message: 'BILLING_PROVIDER_URL must be an http(s) URL such as https://acme.chargify.com',
  })
  BILLING_PROVIDER_URL?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  BILLING_API_KEY?: string;

  /**
   * Signs the provider's webhooks (HMAC-SHA256 of the body); unset: every webhook is refused.
   * At least 32 characters: a short key could be guessed, and a guessed key forges webhooks.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'BILLING_SITE_SHARED_KEY must be at least 32 characters' })
  BILLING_SITE_SHARED_KEY?: string;

  /** The product family whose components price members and shareholders: an id or `handle:<handle>`. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^([1-9]\d*|handle:[a-z0-9_-]+)$/, {
    message: 'BILLING_PRODUCT_FAMILY must be a product family id or handle:<handle>',
  })
  BILLING_PRODUCT_FAMILY?: string;

  @Transform(blankTo('USD'))
  @Matches(/^[A-Z]{3}$/, { message: 'BILLING_CURRENCY must be an ISO 4217 code such as USD' })
  BILLING_CURRENCY = 'USD';

  /** How long a change of an organization's counts waits for more before they are pushed. */
  @Transform(blankTo(5000, Number))
  @IsInt(integer(0, 3_600_000))
  @Min(0, integer(0, 3_600_000))
  @Max(3_600_000, integer(0, 3_600_000))
  BILLING_COUNTS_DEBOUNCE_MS = 5000;

  /** The billing provider is called only when both its URL and its API key are set. */
  get billingConfigured(): boolean {
    return Boolean(this.BILLING_PROVIDER_URL && this.BILLING_API_KEY);
  }
}

export const billingSlice = configSlice({
  name: 'billing',
  schema: BillingConfig,
  check: (env) =>
    Boolean(env.BILLING_PROVIDER_URL) === Boolean(env.BILLING_API_KEY)
      ? []
      : [
          env.BILLING_PROVIDER_URL
            ? '  BILLING_API_KEY: required with BILLING_PROVIDER_URL (or unset both: billing off)'
            : '  BILLING_PROVIDER_URL: required with BILLING_API_KEY (or unset both: billing off)',
        ],
});
