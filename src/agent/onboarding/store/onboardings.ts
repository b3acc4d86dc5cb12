import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { DomainError } from '../../../common';
import { AgentOnboarding, OnboardingStatus } from './onboarding.entity';

/** A new analysis may start from these (a built organization is never analysed again). */
const ANALYSABLE: OnboardingStatus[] = ['pending', 'analyzing', 'analyzed', 'failed'];

/** What an analysis stores when it ends. */
export type AnalysisOutcome = Pick<
  AgentOnboarding,
  'status' | 'analysisError' | 'draft' | 'questions'
>;

/** The onboarding rows: reads, and the writes that must not race. */
@Injectable()
export class Onboardings {
  constructor(
    @InjectRepository(AgentOnboarding) private readonly rows: Repository<AgentOnboarding>,
  ) {}

  add(email: string, initialPrompt: string): Promise<AgentOnboarding> {
    return this.rows.save(
      this.rows.create({ email, initialPrompt, status: 'pending', questions: [], corrections: [] }),
    );
  }

  find(id: string): Promise<AgentOnboarding | null> {
    return this.rows.findOneBy({ id });
  }

  /** The row locked for the rest of `manager`'s transaction; 404 when there is none. */
  async lock(manager: EntityManager, id: string): Promise<AgentOnboarding> {
    const row = await manager
      .getRepository(AgentOnboarding)
      .findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
    if (!row) throw DomainError.notFound('no such onboarding');
    return row;
  }

  save(manager: EntityManager, row: AgentOnboarding): Promise<AgentOnboarding> {
    return manager.getRepository(AgentOnboarding).save(row);
  }

  /**
   * Marks an analysis `run` as the one under way, unless the organization is built; the row as
   * it was then (its draft, answers and corrections are what the analysis starts from).
   */
  async claimAnalysis(id: string, run: string): Promise<AgentOnboarding | null> {
    const claimed = await this.rows
      .createQueryBuilder()
      .update()
      .set({ status: 'analyzing', analysisRun: run })
      .where({ id, status: In(ANALYSABLE) })
      .returning('*')
      .execute();
    return claimed.affected ? this.find(id) : null;
  }

  /** Stores what analysis `run` found, unless a newer analysis or a build came since. */
  async finishAnalysis(id: string, run: string, outcome: AnalysisOutcome): Promise<boolean> {
    const done = await this.rows.update(
      { id, analysisRun: run, status: 'analyzing' },
      // The JSON columns' types are deeper than TypeORM's partial types follow.
      { ...outcome, analysisRun: null } as QueryDeepPartialEntity<AgentOnboarding>,
    );
    return (done.affected ?? 0) > 0;
  }

  /** The latest onboarding linked to the user. */
  latestOf(userId: string): Promise<AgentOnboarding | null> {
    return this.rows.findOne({ where: { linkedUserId: userId }, order: { created: 'DESC' } });
  }
}
