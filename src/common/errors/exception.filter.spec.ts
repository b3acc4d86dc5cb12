import { BadRequestException, NotFoundException, PayloadTooLargeException } from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
import { DomainError } from './domain-error';
import { AllExceptionsFilter } from './exception.filter';

const filter = new AllExceptionsFilter();
// The filter logs 5xx and unexpected errors; keep the test output quiet.
beforeAll(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
const render = (e: unknown) => {
  const { status, body, headers } = filter.render(e);
  return { status, body, ...(headers && Object.keys(headers).length ? { headers } : {}) };
};

describe('AllExceptionsFilter.render', () => {
  it('renders a keyed error of section 7 as {error, key} with its wire value', () => {
    expect(render(DomainError.keyed('ipLimit'))).toEqual({
      status: 400,
      body: { error: 'Bad Request', key: 'ipLimitReached' },
    });
    expect(render(DomainError.keyed('emailBlacklisted', 'blocked'))).toEqual({
      status: 400,
      body: { error: 'Bad Request', key: 'EmailBlacklisted', message: 'blocked' },
    });
  });

  it('renders general errors as {error, message}; 401 and 404 carry their section 7 keys', () => {
    expect(render(DomainError.conflict('last Owner'))).toEqual({
      status: 409,
      body: { error: 'Conflict', message: 'last Owner' },
    });
    expect(render(DomainError.forbidden())).toEqual({
      status: 403,
      body: { error: 'Forbidden', message: 'not allowed' },
    });
    expect(render(DomainError.unauthorized())).toEqual({
      status: 401,
      body: { error: 'Unauthorized', key: 'unauthorized', message: 'authentication required' },
    });
    expect(render(DomainError.notFound('no such member'))).toEqual({
      status: 404,
      body: { error: 'Not Found', key: 'resourceNotFound', message: 'no such member' },
    });
  });

  it('renders the {message} format alone', () => {
    expect(render(DomainError.message(400, 'Missing credential'))).toEqual({
      status: 400,
      body: { message: 'Missing credential' },
    });
  });

  it('adds detail fields to the body and headers to the response', () => {
    const rows = DomainError.badRequest('1 row is invalid', {
      body: { errors: [{ row: 2, column: 'email', reason: 'bad' }] },
    });
    expect(render(rows).body).toEqual({
      error: 'Bad Request',
      message: '1 row is invalid',
      errors: [{ row: 2, column: 'email', reason: 'bad' }],
    });
    const now = Date.parse('2026-12-01T09:00:00.400Z');
    expect(render(DomainError.tooManyRequests(now, 12.2))).toEqual({
      status: 429,
      body: { error: 'Too Many Requests', message: 'too many attempts, retry later' },
      headers: {
        'Retry-After': '13',
        'X-RateLimit-Remaining': '0',
        // The window's end from the caller's time, rounded up to the second, plus Retry-After.
        'X-RateLimit-Reset': String(Date.parse('2026-12-01T09:00:01Z') / 1000 + 13),
      },
    });
  });

  it('maps the framework’s exceptions: unknown route, validation, payload size', () => {
    expect(render(new NotFoundException('Cannot GET /x'))).toEqual({
      status: 404,
      body: { error: 'Not Found', key: 'resourceNotFound', message: 'no such route' },
    });
    expect(render(new BadRequestException(['a must be a string', 'b is required']))).toEqual({
      status: 400,
      body: { error: 'Bad Request', message: 'a must be a string; b is required' },
    });
    expect(render(new PayloadTooLargeException()).status).toBe(413);
  });

  it('maps express body-parser errors by their status', () => {
    const tooLarge = Object.assign(new Error('request entity too large'), {
      status: 413,
      type: 'entity.too.large',
    });
    expect(render(tooLarge)).toEqual({
      status: 413,
      body: { error: 'Payload Too Large', message: 'the request body is too large' },
    });
    const broken = Object.assign(new Error('Unexpected end'), {
      status: 400,
      type: 'entity.parse.failed',
    });
    expect(render(broken).body).toEqual({
      error: 'Bad Request',
      message: 'the request body is not valid JSON',
    });
  });

  it('maps database failures without leaking SQL', () => {
    const unique = Object.assign(new QueryFailedError('INSERT INTO secret', [], new Error('dup')), {
      code: '23505',
    });
    expect(render(unique)).toEqual({
      status: 409,
      body: { error: 'Conflict', message: 'duplicate record' },
    });
    const deadlock = Object.assign(new QueryFailedError('UPDATE x', [], new Error('deadlock')), {
      code: '40P01',
    });
    expect(render(deadlock).status).toBe(409);
    // A number past its column (numeric(38, 10), integer): bad input, not a failure of ours.
    const overflow = Object.assign(
      new QueryFailedError('INSERT INTO security', [], new Error('numeric field overflow')),
      { code: '22003' },
    );
    expect(render(overflow)).toEqual({
      status: 400,
      body: {
        error: 'Bad Request',
        key: 'valueOutOfRange',
        message:
          'a number is out of range (quantities and amounts: at most 28 digits before the point and 10 after); nothing was changed',
      },
    });
    const gone = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    expect(render(gone)).toEqual({
      status: 503,
      body: {
        error: 'Service Unavailable',
        key: 'databaseMissing',
        message: 'the database is unavailable',
      },
    });
  });

  it('answers a statement cancelled at its time limit (57014) with 503 databaseTimeout, wrapped or not', () => {
    const expected = {
      status: 503,
      body: { error: 'Service Unavailable', key: 'databaseTimeout', message: expect.any(String) },
    };
    const cancelled = () =>
      Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' });
    const wrapped = new QueryFailedError('SELECT secret FROM x', [], cancelled());
    expect(render(wrapped)).toEqual(expected);
    expect(render(cancelled())).toEqual(expected);
    expect(JSON.stringify(render(wrapped))).not.toContain('secret');
  });

  it('answers a connection node-postgres lost or could not make (no code) with 503 databaseMissing, wrapped or not', () => {
    const expected = {
      status: 503,
      body: { error: 'Service Unavailable', key: 'databaseMissing', message: expect.any(String) },
    };
    for (const message of [
      'Connection terminated unexpectedly',
      'Connection terminated',
      'Connection terminated due to connection timeout',
      'timeout exceeded when trying to connect',
      'Client has encountered a connection error and is not queryable',
    ]) {
      expect(render(new Error(message))).toEqual(expected);
      expect(render(new QueryFailedError('SELECT 1', [], new Error(message)))).toEqual(expected);
    }
  });

  it('answers anything unexpected with a bare 500', () => {
    expect(render(new Error('secret internal detail'))).toEqual({
      status: 500,
      body: { error: 'Internal Server Error' },
    });
    expect(render('a string thrown')).toEqual({
      status: 500,
      body: { error: 'Internal Server Error' },
    });
  });
});
