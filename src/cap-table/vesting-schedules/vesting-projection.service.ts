import { Injectable } from '@nestjs/common';
import { projectVesting, totalPeriodsProblem, type VestingSchedule } from '../../../libs/cap-math';
import { AccessContext, DomainError } from '../../common';
import { withScheduleErrors } from './schedule-errors';
import { ProjectVestingDto } from './vesting-schedule.dto';
import { toScheduleTerms, VestingProjectionView } from './vesting-schedule.view';
import { VestingSchedulesService } from './vesting-schedules.service';

/** The vesting events of a quantity, start date and schedule, computed by cap-math; nothing saved. */
@Injectable()
export class VestingProjectionService {
  constructor(private readonly schedules: VestingSchedulesService) {}

  async project(access: AccessContext, dto: ProjectVestingDto): Promise<VestingProjectionView> {
    const byId = dto.vestingSchedule !== undefined && dto.vestingSchedule !== null;
    const inline = dto.schedule !== undefined && dto.schedule !== null;
    if (byId === inline) {
      throw DomainError.badRequest('give exactly one of vestingSchedule and schedule', {
        body: { field: byId ? 'schedule' : 'vestingSchedule' },
      });
    }
    // The guard resolved the stored schedule's organization (and the caller's right to see it).
    const schedule: VestingSchedule = byId
      ? toScheduleTerms(await this.schedules.get(access.organizationId!, dto.vestingSchedule!))
      : toScheduleTerms({
          ...dto.schedule!,
          vestingDayOfMonth: dto.schedule!.vestingDayOfMonth ?? null,
          acceleration: dto.schedule!.acceleration ?? null,
        });
    // A schedule stored before the bound on periods would list up to 10,000 events.
    const tooLong = byId ? totalPeriodsProblem(schedule) : null;
    if (tooLong) {
      throw DomainError.badRequest(`vestingSchedule: ${tooLong}`, {
        body: { field: 'vestingSchedule' },
      });
    }
    const { events } = withScheduleErrors(
      () =>
        projectVesting({
          schedule,
          quantity: dto.quantity,
          vestingStartDate: dto.vestingStartDate,
          changeOfControlDate: dto.changeOfControlDate ?? null,
          terminationDate: dto.terminationDate ?? null,
        }),
      byId ? '' : 'schedule.',
    );
    return { events };
  }
}
