import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Access, AccessContext, Permission } from '../../common';
import { RoundModelDto } from './round-model.dto';
import { RoundModelService } from './round-model.service';
import { RoundModelView } from './round-model.view';
import { WaterfallDto, WaterfallStructureQuery } from './waterfall.dto';
import { WaterfallService } from './waterfall.service';
import { BreakpointsView, WaterfallView } from './waterfall.view';

@ApiTags('cap table')
@Controller('v1/captable/:organization/model')
export class ModelingController {
  constructor(
    private readonly rounds: RoundModelService,
    private readonly waterfalls: WaterfallService,
  ) {}

  @Post('round')
  @HttpCode(200)
  @Permission('canViewCapTable')
  @ApiOperation({
    summary: 'Pro-forma priced round on the cap table (nothing is stored)',
    description:
      'Models a priced round on the cap table as it stands today (or on `asOf`).\n\n' +
      'Definitions. Holders count as converted to common (shares × their class’s conversionRatio) plus their ' +
      'outstanding, unexpired grants and warrants. Pre-money fully diluted shares = issued (as converted) + ' +
      'outstanding options + the unallocated pool + the pool increase when `poolIncludedInPreMoney` (default true) + ' +
      'the shares of converting SAFEs and notes; price per share = preMoneyValuation / pre-money fully diluted shares. ' +
      'Post-money SAFEs convert at the lower of their cap price (cap / the post-money SAFE’s company capitalization, ' +
      'which excludes the pool increase) and the round price less their discount; pre-money SAFEs and notes at the ' +
      'lower of cap / pre-money capitalization and the discounted round price; notes convert principal plus unpaid ' +
      'interest plus interest accrued to `closingDate`. Without cap or discount a SAFE converts at the round price ' +
      '(basis `mfn` for MFN SAFEs). `optionPoolTopUp.postMoneyPercent` (0–100) is the whole unallocated pool after ' +
      'the round as a percent of the post-money fully diluted shares; the increase is never negative. The price, the ' +
      'pool increase and the conversions depend on one another and are solved exactly, then share counts are rounded ' +
      'down to whole shares (LLCs keep fractions) and the pool increase up. Investors get amount / price shares. ' +
      '`byHolder` has one row per holder, per new investor (member null) and one for the unallocated pool (member ' +
      'null); fullyDilutedPercentAfter is of the post-money fully diluted shares, 4 decimals, summing to 100. ' +
      'Percentages are 0–100. Errors: 400 for a bad body, for duplicate investor names, for an asOf in the future or ' +
      'for terms that cannot be solved (the message says which).',
  })
  @ApiOkResponse({ type: RoundModelView, description: 'The modeled round' })
  @ApiBadRequestResponse({
    description:
      'A malformed body, duplicate investor names, an `asOf` in the future, or terms that cannot be solved',
  })
  round(@Access() access: AccessContext, @Body() body: RoundModelDto): Promise<RoundModelView> {
    return this.rounds.model(access, body);
  }

  @Post('waterfall')
  @HttpCode(200)
  @Permission('canViewCapTable')
  @ApiOperation({
    summary: 'Exit waterfall: who receives what when the company is sold (nothing is stored)',
    description:
      'Money has 2 decimals; percentOfProceeds is 0–100 with 4 decimals.\n\n' +
      'Rules. distributable = exitValue − transactionExpenses (never below 0). Liquidation preferences ' +
      '(liquidationPreferenceMultiple, default 1, × originalIssuePrice × shares) are paid by seniority, highest ' +
      'first; classes of one seniority are paid pari passu, pro rata to their preferences when the money is short. ' +
      'Convertible notes are debt, paid before every preferred class (principal plus interest owed on asOf); SAFEs ' +
      'take their purchase amount pari passu with the most senior preferred. Either converts at its valuation cap ' +
      'instead when that pays more (no cap: cash-out only; a discount does not apply at an exit). What is left is ' +
      'shared per common share by common shares, preferred as converted (shares × conversionRatio), participating ' +
      'preferred (after its preference, until a share has received participationCapMultiple × originalIssuePrice), ' +
      'and options and warrants in the money. A non-participating class converts to common exactly when that pays ' +
      'more, decided together at the common share value the result produces (a stable, unique result); a capped ' +
      'participating class converts when its as-converted value passes the cap. Options and warrants take part ' +
      'only vested (on asOf; all outstanding ones with treatUnvestedAsAccelerated) and only when the common share ' +
      'value is above their exercise price; they are treated as exercised cashlessly: the exercise price joins the ' +
      'proceeds shared per common share and each option receives shares × (value − exercise price). Everything is ' +
      'computed exactly, then rounded to cents by the largest-remainder method, so proceeds add up to ' +
      'distributable to the cent. warnings name what had to be assumed (a preferred class without ' +
      'originalIssuePrice counts with no preference). An exit value that only fixed cash-out amounts could absorb, ' +
      'with no shares to take the rest, is a 400.',
  })
  @ApiOkResponse({ type: WaterfallView, description: 'The waterfall' })
  @ApiBadRequestResponse({
    description:
      'A malformed body, an `asOf` in the future, or an exit value only fixed cash-out amounts could absorb',
  })
  waterfall(@Access() access: AccessContext, @Body() body: WaterfallDto): Promise<WaterfallView> {
    return this.waterfalls.waterfall(access, body.exitValue, body);
  }

  @Get('waterfall/breakpoints')
  @Permission('canViewCapTable')
  @ApiOperation({
    summary:
      'The exit values at which some class’s, option’s or convertible’s payout changes slope',
    description:
      '`?asOf`, `?transactionExpenses`, `?treatUnvestedAsAccelerated=true|false` as for the waterfall. One ' +
      'entry per exit value, sorted (rounded up to the cent). `securities` are the classes whose payout changes slope there. ' +
      'Between two consecutive breakpoints every payout is linear in the exit value, so a payout chart needs the ' +
      'waterfall only at these points. In an event, `security` is the class concerned, `holding` the SAFE or note, ' +
      '`options` the grants and warrants coming into the money.',
  })
  @ApiOkResponse({ type: BreakpointsView, description: 'The breakpoints' })
  @ApiBadRequestResponse({
    description:
      'A malformed path or query (an unknown parameter), an `asOf` in the future, or terms that cannot be solved',
  })
  breakpoints(
    @Access() access: AccessContext,
    @Query() query: WaterfallStructureQuery,
  ): Promise<BreakpointsView> {
    return this.waterfalls.breakpoints(access, query);
  }
}
