import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { DomainError } from '../../common';
import { ColorView, PutColorDto } from './color.dto';
import { ColorPreference } from './color-preference.entity';

/** A user's colors for entities and UI elements; only the user themselves may see or set them. */
@Injectable()
export class ColorsService {
  constructor(
    @InjectRepository(ColorPreference) private readonly colors: Repository<ColorPreference>,
  ) {}

  async put(callerId: string, user: string, target: string, body: PutColorDto): Promise<ColorView> {
    assertSelf(callerId, user);
    if (body.user !== user || body.target !== target) {
      throw DomainError.badRequest('user and target of the body must equal those of the path');
    }
    await this.colors.upsert({ userId: user, target, color: body.color }, ['userId', 'target']);
    return { user, target, color: body.color };
  }

  async list(callerId: string, user: string): Promise<ColorView[]> {
    assertSelf(callerId, user);
    const rows = await this.colors.find({ where: { userId: user }, order: { target: 'ASC' } });
    return rows.map(view);
  }

  async get(callerId: string, user: string, target: string): Promise<ColorView> {
    assertSelf(callerId, user);
    const row = await this.colors.findOneBy({ userId: user, target });
    if (!row) throw DomainError.notFound('no color set for this target');
    return view(row);
  }

  async remove(callerId: string, user: string, target: string): Promise<void> {
    assertSelf(callerId, user);
    const result = await this.colors.delete({ userId: user, target });
    if (!result.affected) throw DomainError.notFound('no color set for this target');
  }
}

/** Color preferences are personal: `:user` must be the caller (the route is per-user). */
function assertSelf(callerId: string, user: string) {
  if (callerId !== user) throw DomainError.forbidden('these are another user’s preferences');
}

const view = (row: ColorPreference): ColorView => ({
  user: row.userId,
  target: row.target,
  color: row.color,
});
