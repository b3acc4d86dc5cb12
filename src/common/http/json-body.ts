import type { NextFunction, Request, Response } from 'express';
import { isLosslessNumber, isSafeNumber, parse } from 'lossless-json';
import { DomainError } from '../errors/domain-error';

/** The media types parsed as JSON (the body parser reads them as text first). */
export const JSON_TYPES = ['application/json', 'application/*+json'];

/**
 * A number the float could hold without losing a digit becomes a number; any other (a share
 * count or price with more significant digits than a double has) stays the exact text it was
 * sent as, for the decimal fields that accept text.
 */
const exactNumbers = (_key: string, value: unknown) =>
  isLosslessNumber(value) ? (isSafeNumber(value.value) ? Number(value.value) : value.value) : value;

/**
 * Parses a JSON body without passing numbers through float arithmetic (spec rule: quantities
 * and prices are exact), after the text body parser has read it.
 */
export function jsonBody(req: Request, _res: Response, next: NextFunction) {
  if (typeof req.body !== 'string' || !req.is(JSON_TYPES)) return next();
  const text = req.body;
  let body: unknown;
  try {
    body = text.trim() ? parse(text, exactNumbers) : {};
  } catch {
    return next(DomainError.badRequest('the request body is not valid JSON'));
  }
  // PostgreSQL text cannot hold NUL: refused here, once for every route, rather than as a 500.
  if (text.includes('\\u0000') && containsNul(body)) {
    return next(DomainError.badRequest('text must not contain NUL (\\u0000) characters'));
  }
  req.body = body;
  next();
}

function containsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(containsNul);
  if (value && typeof value === 'object') {
    return Object.entries(value).some(([k, v]) => k.includes('\u0000') || containsNul(v));
  }
  return false;
}
