import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { DomainError } from '../../common';
import { UnitOfWork } from '../../events';
import { MAX_PREFERENCES, PatchUserStateDto, UserStateView } from './user-state.dto';
import { UserState } from './user-state.entity';

/** Per-user state: onboarding steps done and UI preferences. */
@Injectable()
export class UserStateService {
  constructor(
    @InjectRepository(UserState) private readonly states: Repository<UserState>,
    private readonly uow: UnitOfWork,
  ) {}

  async get(userId: string): Promise<UserStateView> {
    return view(await this.states.findOneBy({ userId }));
  }

  /** Replaces completedSteps (deduplicated, order kept); merges preferences key by key. */
  patch(userId: string, patch: PatchUserStateDto): Promise<UserStateView> {
    return this.uow.run(async (tx) => {
      const states = tx.manager.getRepository(UserState);
      await states
        .createQueryBuilder()
        .insert()
        .values({ userId, completedSteps: [], preferences: {} })
        .orIgnore()
        .execute();
      const state = await states.findOneOrFail({
        where: { userId },
        lock: { mode: 'pessimistic_write' },
      });
      if (patch.completedSteps) state.completedSteps = [...new Set(patch.completedSteps)];
      if (patch.preferences) {
        const merged = { ...state.preferences, ...patch.preferences };
        if (Object.keys(merged).length > MAX_PREFERENCES) {
          throw DomainError.badRequest(`preferences may hold at most ${MAX_PREFERENCES} keys`);
        }
        state.preferences = merged;
      }
      return view(await states.save(state));
    });
  }
}

const view = (state: UserState | null): UserStateView => ({
  completedSteps: state?.completedSteps ?? [],
  preferences: state?.preferences ?? {},
});
