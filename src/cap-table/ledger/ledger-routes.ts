import {
  applyDecorators,
  Body,
  Controller,
  HttpCode,
  Param,
  Patch,
  Post,
  Put,
  type Type,
} from '@nestjs/common';
import { ApiBody, ApiConflictResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Access, type AccessContext, ApiKeyedErrors, Permission } from '../../common';
import { Idempotent } from '../../idempotency';
import { LedgerWriter } from './ledger-writer';
import type { TransactionType } from './transaction-types';
import { TRANSACTIONS } from './transactions';
import { COMMANDS } from './commands';
import type { CommandRoute, TransactionDefinition } from './transactions/definition';

const METHODS = { POST: Post, PUT: Put, PATCH: Patch } as const;

/**
 * The routes the registry's definitions declare (`http`), one controller each: the body validated
 * against the definition's DTO, the permission decided by the guard as on any route, the command
 * run by `LedgerWriter.execute`, the answer made by the definition. A new type's route is its
 * definition's, not a controller of its own.
 */
export function ledgerRouteControllers(): Type[] {
  const ofTypes = (Object.keys(TRANSACTIONS) as TransactionType[]).flatMap((type) => {
    const http = (TRANSACTIONS[type] as TransactionDefinition<TransactionType>).http;
    return http
      ? [
          routeController(type, http, (writer, input, access) =>
            writer.execute(type, input, access, (o) => http.respond(o)),
          ),
        ]
      : [];
  });
  const ofCommands = COMMANDS.flatMap((command) =>
    command.http
      ? [
          routeController(command.name, command.http, (writer, input, access) =>
            writer.run(command, input, access, (r) => command.http!.respond(r)),
          ),
        ]
      : [],
  );
  return [...ofTypes, ...ofCommands];
}

type Runner = (
  writer: LedgerWriter,
  input: unknown,
  access: AccessContext,
) => Promise<{ answer?: object }>;

function routeController(
  type: string,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  route: CommandRoute<any, any>,
  runner: Runner,
): Type {
  @Controller('v1')
  class LedgerRoute {
    constructor(readonly writer: LedgerWriter) {}

    async handle(access: AccessContext, params: Record<string, string>, body: object) {
      return (await runner(this.writer, route.input(body, params), access)).answer;
    }
  }
  const proto = LedgerRoute.prototype;
  const descriptor = Object.getOwnPropertyDescriptor(proto, 'handle')!;
  applyDecorators(
    METHODS[route.method](route.path),
    HttpCode(route.status),
    Idempotent(),
    Permission(route.permission, route.target),
    ApiTags('cap table'),
    ApiOperation({
      operationId: `LedgerRoute_${type}`,
      summary: route.summary,
      description: `${route.description} (Ledger transaction \`${type}\`.)`,
    }),
    ApiBody({ type: route.body, examples: { example: { value: route.example } } }),
    ApiResponse({ status: route.status, type: route.answer, description: route.summary }),
    ApiKeyedErrors(...(route.errors ?? [])),
    ...(route.conflict ? [ApiConflictResponse({ description: route.conflict })] : []),
  )(proto, 'handle', descriptor);
  Access()(proto, 'handle', 0);
  Param()(proto, 'handle', 1);
  Body()(proto, 'handle', 2);
  // What the ValidationPipe validates the body against.
  Reflect.defineMetadata('design:paramtypes', [Object, Object, route.body], proto, 'handle');
  Object.defineProperty(LedgerRoute, 'name', { value: `LedgerRoute_${type}` });
  return LedgerRoute;
}
