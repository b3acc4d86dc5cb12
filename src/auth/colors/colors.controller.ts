import { Body, Controller, Delete, Get, Param, Put, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiErrors, ApiValidationError, Authenticated, SuccessResponse } from '../../common';
import { ColorView, PutColorDto } from './color.dto';
import { ColorsService } from './colors.service';

const NOT_SELF: [number, string] = [403, '`:user` is not the caller'];

/** A user's color preferences; each user sees and sets only their own. */
@ApiTags('user')
@ApiParam({ name: 'user', format: 'uuid' })
@Controller('v1/user/:user/color')
export class ColorsController {
  constructor(private readonly colors: ColorsService) {}

  @Put(':target')
  @Authenticated()
  @ApiOperation({ summary: 'Set the color of a target (body user/target must equal the path)' })
  @ApiOkResponse({ type: ColorView, description: 'The color preference `{user, target, color}`' })
  @ApiValidationError()
  @ApiErrors(NOT_SELF)
  put(
    @Req() req: Request,
    @Param('user') user: string,
    @Param('target') target: string,
    @Body() body: PutColorDto,
  ): Promise<ColorView> {
    return this.colors.put(req.session.userId!, user, target, body);
  }

  @Get()
  @Authenticated()
  @ApiOperation({ summary: 'All color preferences of the user' })
  @ApiOkResponse({
    type: [ColorView],
    description: 'A JSON array of the color preferences `{user, target, color}`, by target',
  })
  @ApiErrors(NOT_SELF)
  list(@Req() req: Request, @Param('user') user: string): Promise<ColorView[]> {
    return this.colors.list(req.session.userId!, user);
  }

  @Get(':target')
  @Authenticated()
  @ApiOperation({ summary: 'The color preference of one target' })
  @ApiOkResponse({ type: ColorView, description: 'The color preference `{user, target, color}`' })
  @ApiErrors(NOT_SELF, [404, 'No color set for this target'])
  get(
    @Req() req: Request,
    @Param('user') user: string,
    @Param('target') target: string,
  ): Promise<ColorView> {
    return this.colors.get(req.session.userId!, user, target);
  }

  @Delete(':target')
  @Authenticated()
  @ApiOperation({ summary: 'Remove the color preference of one target' })
  @ApiOkResponse({ type: SuccessResponse })
  @ApiErrors(NOT_SELF, [404, 'No color set for this target'])
  async remove(
    @Req() req: Request,
    @Param('user') user: string,
    @Param('target') target: string,
  ): Promise<{ success: true }> {
    await this.colors.remove(req.session.userId!, user, target);
    return { success: true };
  }
}
