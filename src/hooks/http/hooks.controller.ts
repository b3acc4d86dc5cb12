import { All, Controller, Post, Req, Res, UseFilters } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CsrfExempt, Machine, Public, RawBody } from '../../common';
import { HookErrorsFilter, sendHookReply } from './hook-errors.filter';
import { hookFailure, HookRequests } from './hook-requests';
import { ApiAgentHook, ApiMappedHook, ApiWakeHook, HOOK_DESCRIPTIONS } from './hooks.openapi';

/**
 * The gateway hooks' routes (issue 24) under HOOKS_PATH (`hooksController` gives the path, when
 * the modules are composed). Machine callers with HOOKS_TOKEN, decided by the access guard; the
 * body is read after it, within HOOKS_MAX_BODY_BYTES (`@RawBody('stream')`: no body parser,
 * session nor CORS touches these routes). Every answer, refusals included, is in the hooks' own
 * `{ok, ...}` shape.
 */
@ApiTags('hooks')
@RawBody('stream')
@CsrfExempt('machine callers with the hooks token (HOOKS_TOKEN), which no browser holds')
@UseFilters(HookErrorsFilter)
export class HooksController {
  constructor(private readonly requests: HookRequests) {}

  @Post('wake')
  @Machine('hooksToken')
  @ApiOperation({ summary: 'Wake the organization’s agent', description: HOOK_DESCRIPTIONS.wake })
  @ApiWakeHook()
  async wake(@Req() req: Request, @Res() res: Response): Promise<void> {
    sendHookReply(res, await this.requests.answer(req, res));
  }

  @Post('agent')
  @Machine('hooksToken')
  @ApiOperation({ summary: 'Hand the agent a task', description: HOOK_DESCRIPTIONS.agent })
  @ApiAgentHook()
  async agent(@Req() req: Request, @Res() res: Response): Promise<void> {
    sendHookReply(res, await this.requests.answer(req, res));
  }

  @Post(':name')
  @Machine('hooksToken')
  @ApiOperation({ summary: 'A mapped hook', description: HOOK_DESCRIPTIONS.mapped })
  @ApiMappedHook()
  async mapped(@Req() req: Request, @Res() res: Response): Promise<void> {
    sendHookReply(res, await this.requests.answer(req, res));
  }

  /** A mapping's sub-path with slashes (`ci/build`), and HOOKS_PATH itself (no mapping: 404). */
  @Post(['', '*mapping'])
  @Machine('hooksToken')
  @ApiExcludeEndpoint()
  async mappedDeep(@Req() req: Request, @Res() res: Response): Promise<void> {
    sendHookReply(res, await this.requests.answer(req, res));
  }

  /**
   * Any other method, on any path under HOOKS_PATH: 405 before any token is looked at. Public:
   * it answers nothing else, reads no body and touches no record.
   */
  @All(['', '*path'])
  @Public()
  @ApiExcludeEndpoint()
  otherMethod(@Res() res: Response): void {
    res.setHeader('Allow', 'POST');
    sendHookReply(res, hookFailure(405, 'method not allowed'));
  }
}

/** The hooks' routes at `path` (HOOKS_PATH as the modules are composed). */
export function hooksController(path: string): typeof HooksController {
  Controller(path)(HooksController);
  return HooksController;
}
