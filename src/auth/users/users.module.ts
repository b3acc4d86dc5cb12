import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { User } from './user.entity';
import { UserRepository } from './user.repository';
import { UsersDirectory } from './users.directory';

/** Accounts, without sessions: what the CLI and other modules need of the Auth module. */
@Module({
  imports: [TypeOrmModule.forFeature([User])],
  providers: [UserRepository, UsersDirectory],
  exports: [UserRepository, UsersDirectory],
})
export class UsersModule {}
