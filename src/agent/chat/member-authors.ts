import { Injectable } from '@nestjs/common';
import { OrganizationsDirectory } from '../../organizations';
import type { Author } from '../store/conversations';

/** The person a stored message is theirs, with the name and role the other members know. */
@Injectable()
export class MemberAuthors {
  constructor(private readonly directory: OrganizationsDirectory) {}

  async of(organizationId: string, userId: string): Promise<Author> {
    const label = await this.directory.memberLabel(organizationId, userId);
    return { authorId: userId, authorName: label?.name ?? null, authorRole: label?.role ?? null };
  }
}
