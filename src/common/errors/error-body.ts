import { STATUS_CODES } from 'node:http';

export interface ErrorBody {
  error?: string;
  message?: string;
  key?: string;
  [field: string]: unknown;
}

export const statusText = (status: number) => STATUS_CODES[status] ?? 'Error';

export const errorBody = (status: number, extra: Omit<ErrorBody, 'error'> = {}): ErrorBody => ({
  error: statusText(status),
  ...extra,
});
