import 'reflect-metadata';
import { Type } from 'class-transformer';
import {
  IsInt,
  IsNotEmpty,
  IsString,
  MaxLength,
  ValidateNested,
  validateSync,
} from 'class-validator';
import { plainToInstance } from 'class-transformer';
import { validationError } from './validation';

class Pool {
  @IsString()
  @MaxLength(5)
  name: string;
}

class Plan {
  @IsString()
  @IsNotEmpty()
  @MaxLength(10)
  name: string;

  @IsInt()
  shares: number;

  @ValidateNested({ each: true })
  @Type(() => Pool)
  pools: Pool[];
}

const errorsOf = (body: object) => validateSync(plainToInstance(Plan, body));

describe('validationError', () => {
  it('names each failing field once, with one rule', () => {
    const e = validationError(errorsOf({ name: 'much too long a name', shares: 1.5, pools: [] }));
    expect(e.status).toBe(400);
    expect(e.key).toBe('badRequest');
    expect(e.message).toBe(
      'name must be shorter than or equal to 10 characters; shares must be an integer number',
    );
  });

  it('reports a wrong type rather than the rules that follow from it', () => {
    const e = validationError(errorsOf({ name: 42, shares: 1, pools: [] }));
    expect(e.message).toBe('name must be a string');
  });

  it('says "is required" and uses the invalidFields key when a field is missing', () => {
    const e = validationError(errorsOf({ shares: 1, pools: [] }));
    expect(e.key).toBe('invalidFields');
    expect(e.message).toBe('name is required');
  });

  it('names nested fields by their path', () => {
    const e = validationError(errorsOf({ name: 'a', shares: 1, pools: [{ name: 'too long' }] }));
    expect(e.message).toBe('pools.0.name must be shorter than or equal to 5 characters');
  });
});
