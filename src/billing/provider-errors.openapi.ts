import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ErrorResponse } from '../common';

/** The answers of a route that calls the billing provider, besides its own. */
export const ApiProviderErrors = () =>
  applyDecorators(
    ApiResponse({
      status: 500,
      type: ErrorResponse,
      description:
        '`billingNotConfigured` while the provider is not configured; or the provider gave no usable answer',
    }),
  );
