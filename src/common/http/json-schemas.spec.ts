import { Type } from '@sinclair/typebox';
import { toOpenApi30 } from './json-schemas';

describe('toOpenApi30', () => {
  it('writes a TypeBox schema in OpenAPI 3.0’s dialect: nullable, enums, no $id', () => {
    const schema = Type.Object(
      {
        kind: Type.Union([Type.Literal('common'), Type.Literal('preferred')]),
        one: Type.Literal('only'),
        price: Type.Union([Type.String({ pattern: '^[0-9]+$' }), Type.Null()], {
          description: 'A price',
        }),
        nested: Type.Union([Type.Object({ id: Type.String() }), Type.Null()]),
        either: Type.Union([Type.String(), Type.Integer()]),
        ref: Type.Union([Type.Unsafe<unknown>({ $ref: '#/components/schemas/X' }), Type.Null()]),
      },
      { $id: 'Thing' },
    );
    expect(toOpenApi30(schema)).toEqual({
      type: 'object',
      required: ['kind', 'one', 'price', 'nested', 'either', 'ref'],
      properties: {
        kind: { type: 'string', enum: ['common', 'preferred'] },
        one: { type: 'string', enum: ['only'] },
        price: { type: 'string', pattern: '^[0-9]+$', description: 'A price', nullable: true },
        nested: {
          type: 'object',
          required: ['id'],
          properties: { id: { type: 'string' } },
          nullable: true,
        },
        either: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
        ref: { allOf: [{ $ref: '#/components/schemas/X' }], nullable: true },
      },
    });
  });
});
