import { ApiProperty, getSchemaPath } from '@nestjs/swagger';

/** The answer one read got: what the caller would get asking for it alone. */
export class QueryResultView {
  /** Its HTTP status (200, or a refusal such as 403 or 404). */
  @ApiProperty({ type: 'integer', example: 200 })
  status: number;
  /**
   * Its body: the parsed JSON of a JSON answer (the route's documented body, or the error body
   * of a refusal), the text of any other answer, null when it had none.
   */
  @ApiProperty({
    nullable: true,
    oneOf: [
      { type: 'object', additionalProperties: true },
      { type: 'array', items: {} },
      { type: 'string' },
      { type: 'number' },
      { type: 'boolean' },
    ],
  })
  body: unknown;
}

/** `POST /v1/query`: the answer of each read, under the caller's id for it. */
export class QueryResponseView {
  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: getSchemaPath(QueryResultView) },
    description:
      'Under each id of the request: `{"holdings": {"status": 200, "body": [...]}, "denied": ' +
      '{"status": 403, "body": {"error": "Forbidden", "message": "..."}}}`',
  })
  results: Record<string, QueryResultView>;
}
