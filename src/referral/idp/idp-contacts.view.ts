import { ApiProperty } from '@nestjs/swagger';
import { SuccessResponse } from '../../common';

export class IdpAuthUrlView {
  /**
   * The identity provider's consent page (OAuth 2.0 web-server flow: contacts read-only, the
   * account's e-mail, offline access, PKCE); its `state` is good for one connect of this session
   * within 10 minutes.
   */
  url: string;
}

export class IdpConnectedView extends SuccessResponse {
  /** The connected account's e-mail; null when the provider did not share it. */
  @ApiProperty({ type: String, nullable: true })
  email: string | null;
}

export class IdpContactView {
  /** The person's display name; null when the contact has none. */
  @ApiProperty({ type: String, nullable: true })
  name: string | null;
  /** One of the person's addresses, lower-cased. */
  email: string;
}
