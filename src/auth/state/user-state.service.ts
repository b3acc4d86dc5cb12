import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { HttpError } from '../../common/errors/app-error';
import { MAX_PREFERENCES, PatchUserStateDto, UserStateView } from './user-state.dto';
import { UserState } from './user-state.entity';

/** Per-user state: onboarding steps done and UI preferences. */
@Injectable()
export class UserStateService {
  constructor(private readonly dataSource: DataSource) {}

  async get(userId: string): Promise<UserStateView> {
    const state = await this.dataSource.getRepository(UserState).findOneBy({ userId });
    return view(state);
  }

  /** Replaces completedSteps (deduplicated, order kept); merges preferences key by key. */
  async patch(userId: string, patch: PatchUserStateDto): Promise<UserStateView> {
    return this.dataSource.transaction(async (manager) => {
      await manager
        .createQueryBuilder()
        .insert()
        .into(UserState)
        .values({ userId, completedSteps: [], preferences: {} })
        .orIgnore()
        .execute();
      const state = await manager.findOneOrFail(UserState, {
        where: { userId },
        lock: { mode: 'pessimistic_write' },
      });
      if (patch.completedSteps) state.completedSteps = [...new Set(patch.completedSteps)];
      if (patch.preferences) {
        const merged = { ...state.preferences, ...patch.preferences };
        if (Object.keys(merged).length > MAX_PREFERENCES) {
          throw HttpError.badRequest(`at most ${MAX_PREFERENCES} preferences`);
        }
        state.preferences = merged;
      }
      return view(await manager.save(state));
    });
  }
}

const view = (state: UserState | null): UserStateView => ({
  completedSteps: state?.completedSteps ?? [],
  preferences: state?.preferences ?? {},
});
