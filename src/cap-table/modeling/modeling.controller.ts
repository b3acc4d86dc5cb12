import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Access, AccessContext, Permission } from '../../common';
import { RoundModelDto } from './round-model.dto';
import { RoundModelService } from './round-model.service';

@ApiTags('cap table')
@Controller('v1/captable/:organization/model')
export class ModelingController {
  constructor(private readonly rounds: RoundModelService) {}

  @Post('round')
  @HttpCode(200)
  @Permission('canViewCapTable')
  @ApiOperation({
    summary: 'Pro-forma priced round on the cap table (nothing is stored)',
    description:
      'Models a priced round on the cap table as it stands today (or on `asOf`). Answer: {asOf, closingDate, ' +
      'pricePerShare, preMoneyValuation, preMoneyFullyDilutedShares, postMoneyValuation, postMoneyFullyDilutedShares, ' +
      'newMoney, poolIncrease, conversions: [{holding, member, type, amount, accruedInterest, shares, pricePerShare, ' +
      'basis: cap|discount|round|mfn}], investors: [{name, amount, shares}], byHolder: [{member, name, kind: ' +
      'holder|investor|pool, sharesBefore, sharesAfter, fullyDilutedPercentBefore, fullyDilutedPercentAfter}]}.\n\n' +
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
  @ApiOkResponse({ description: 'The modeled round' })
  round(@Access() access: AccessContext, @Body() body: RoundModelDto) {
    return this.rounds.model(access.organizationId!, body);
  }
}
