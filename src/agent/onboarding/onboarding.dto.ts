import { Transform } from 'class-transformer';
import { IsEmail, IsNotEmpty, IsString, IsUUID, MaxLength } from 'class-validator';
import { NormalizeEmail, Trim } from '../../common';

export class CreateOnboardingDto {
  /** Where the founder will sign up; linking needs a session with this address. */
  @NormalizeEmail()
  @IsString()
  @MaxLength(320)
  @IsEmail()
  email: string;

  /** The founder's description of the company, its people and their equity. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(8000)
  initialPrompt: string;
}

export class OnboardingIdDto {
  @IsUUID()
  onboardingId: string;
}

export class ClarifyDto extends OnboardingIdDto {
  @IsUUID()
  questionId: string;

  /** Checked against the question's kind (a number, a `YYYY-MM-DD` date, one of the options, `true`/`false`). */
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(2000)
  answer: string;
}

export class CorrectDto extends OnboardingIdDto {
  @IsUUID()
  itemId: string;

  /** A field of the item, as the showcase names it (e.g. `quantity`, `name`). */
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  fieldPath: string;

  /** The new value as text (a number or boolean is taken as its text); coerced to the field's type. */
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'number' || typeof value === 'boolean' ? String(value) : value,
  )
  @IsString()
  @MaxLength(1000)
  newValue: string;
}
