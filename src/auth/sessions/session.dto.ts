import { ApiProperty } from '@nestjs/swagger';

/** Spec section 2, Session diagnostic. */
export class SessionDiagnostic {
  @ApiProperty() hasSession: boolean;
  @ApiProperty() hasUser: boolean;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) userId: string | null;
  @ApiProperty({ example: 'AbC12xYz...' }) sessionIdPrefix: string;
  @ApiProperty() hasConnectSidCookie: boolean;
  @ApiProperty() cookieSecure: boolean;
  @ApiProperty({ description: 'Milliseconds remaining' }) cookieMaxAge: number;
  @ApiProperty({ format: 'date-time' }) timestamp: string;
}
