import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { HttpError } from '../../common/errors/app-error';
import { ColorView, PutColorDto } from './color.dto';
import { ColorPreference } from './color-preference.entity';

/** A user's colors for entities and UI elements; only the user themselves may see or set them. */
@Injectable()
export class ColorsService {
  constructor(private readonly dataSource: DataSource) {}

  private get repo() {
    return this.dataSource.getRepository(ColorPreference);
  }

  async put(callerId: string, user: string, target: string, body: PutColorDto): Promise<ColorView> {
    assertSelf(callerId, user);
    if (body.user !== user || body.target !== target) {
      throw HttpError.badRequest('user and target of the body must equal those of the path');
    }
    await this.repo.upsert({ userId: user, target, color: body.color }, ['userId', 'target']);
    return { user, target, color: body.color };
  }

  async list(callerId: string, user: string): Promise<ColorView[]> {
    assertSelf(callerId, user);
    const rows = await this.repo.find({ where: { userId: user }, order: { target: 'ASC' } });
    return rows.map(view);
  }

  async get(callerId: string, user: string, target: string): Promise<ColorView> {
    assertSelf(callerId, user);
    const row = await this.repo.findOneBy({ userId: user, target });
    if (!row) throw HttpError.notFound();
    return view(row);
  }

  async remove(callerId: string, user: string, target: string): Promise<void> {
    assertSelf(callerId, user);
    const result = await this.repo.delete({ userId: user, target });
    if (!result.affected) throw HttpError.notFound();
  }
}

function assertSelf(callerId: string, user: string) {
  if (callerId !== user) throw HttpError.forbidden();
}

const view = (row: ColorPreference): ColorView => ({
  user: row.userId,
  target: row.target,
  color: row.color,
});
