import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { QueryFailedError } from 'typeorm';
import { renderError } from './all-exceptions.filter';
import { AppError, HttpError, MessageError } from './app-error';
import { ERROR_CATALOGUE } from './error-catalogue';

describe('error catalogue', () => {
  it('holds every application key of spec section 7 with its wire value and status 400', () => {
    const spec = readFileSync(join(__dirname, '../../../../shared/spec/service-spec.md'), 'utf8');
    const table = spec.slice(
      spec.indexOf('Application error keys'),
      spec.indexOf('Other server error keys'),
    );
    const rows = [...table.matchAll(/^\| (\w+) \| (\w+) \| /gm)].map((m) => [m[1], m[2]]);
    expect(rows.length).toBe(12);
    for (const [key, wire] of rows) {
      expect(ERROR_CATALOGUE).toHaveProperty(key);
      expect(ERROR_CATALOGUE[key as keyof typeof ERROR_CATALOGUE]).toEqual({ wire, status: 400 });
    }
  });

  it('holds the other server error keys of section 7', () => {
    for (const key of [
      'databaseMissing',
      'resourceNotFound',
      'unauthorized',
      'invalidFields',
      'unsupportedFileExtension',
      'missingFileArgument',
      'insufficientShares',
    ]) {
      expect(ERROR_CATALOGUE).toHaveProperty(key);
    }
  });
});

describe('renderError', () => {
  it('renders keyed errors as {error, key} with the wire value', () => {
    expect(renderError(new AppError('ipLimit'))).toEqual({
      status: 400,
      body: { error: 'Bad Request', key: 'ipLimitReached' },
    });
    expect(renderError(new AppError('emailBlacklisted'))).toMatchObject({
      body: { key: 'EmailBlacklisted' },
    });
  });

  it('renders plain errors as {error}, with a message only when one is given', () => {
    expect(renderError(HttpError.forbidden())).toMatchObject({
      status: 403,
      body: { error: 'Forbidden' },
    });
    expect(renderError(HttpError.conflict('last Owner'))).toMatchObject({
      status: 409,
      body: { error: 'Conflict', message: 'last Owner' },
    });
  });

  it('renders {message} errors as {message} only', () => {
    expect(renderError(new MessageError(400, 'Missing credential'))).toEqual({
      status: 400,
      body: { message: 'Missing credential' },
    });
  });

  it('maps database failures without leaking SQL', () => {
    const unique = Object.assign(new QueryFailedError('INSERT INTO secret', [], new Error('dup')), {
      code: '23505',
    });
    expect(renderError(unique)).toEqual({
      status: 409,
      body: { error: 'Conflict', message: 'duplicate record' },
    });
    const deadlock = Object.assign(new QueryFailedError('UPDATE x', [], new Error('deadlock')), {
      code: '40P01',
    });
    expect(renderError(deadlock)?.status).toBe(409);
    const gone = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    expect(renderError(gone)).toEqual({
      status: 503,
      body: { error: 'Service Unavailable', key: 'databaseMissing' },
    });
    expect(renderError(new Error('boom'))).toBeUndefined();
  });
});
