import { coerceField } from './draft-corrections';

describe('coerceField: a correction typed as text', () => {
  it('normalises decimals as people type them', () => {
    expect(coerceField('shareholdings', 'quantity', ' 4,000,000 ')).toEqual({ value: '4000000' });
    expect(coerceField('convertibles', 'investment_amount', '$1.5M')).toEqual({ value: '1500000' });
    expect(coerceField('optionGrants', 'exercise_price', '0.250')).toEqual({ value: '0.25' });
    expect(coerceField('optionPools', 'shares_reserved', '2k')).toEqual({ value: '2000' });
  });

  it('refuses what is not a decimal, and a decimal the DTO refuses', () => {
    expect(coerceField('shareholdings', 'quantity', 'four million')).toEqual({
      error: 'quantity must be a number such as 4000000 or 0.25',
    });
    expect(coerceField('shareholdings', 'quantity', '-5')).toEqual({
      error: 'quantity must be a number such as 4000000 or 0.25',
    });
    expect(coerceField('shareholdings', 'quantity', '0.00000000001')).toEqual({
      error: expect.stringMatching(
        /^quantity must be a non-negative decimal number \(at most 28 digits before the point and 10 after\)/,
      ),
    });
  });

  it('reads fractions as a percentage or a fraction', () => {
    expect(coerceField('convertibles', 'discount', '20%')).toEqual({ value: '0.2' });
    expect(coerceField('convertibles', 'discount', '20')).toEqual({ value: '0.2' });
    expect(coerceField('convertibles', 'interest_rate', '0.08')).toEqual({ value: '0.08' });
    expect(coerceField('convertibles', 'discount', '150%')).toEqual({
      error: 'discount must be a fraction from 0 to 1 (0.2 is 20%)',
    });
  });

  it('reads whole numbers, with the DTO bounds', () => {
    expect(coerceField('vestingSchedules', 'occurrences', '48')).toEqual({ value: 48 });
    expect(coerceField('vestingSchedules', 'occurrences', '4.5')).toEqual({
      error: 'occurrences must be a whole number',
    });
    expect(coerceField('shareClasses', 'seniority', '1001')).toEqual({
      error: 'seniority must not be greater than 1000',
    });
  });

  it('reads dates YYYY-MM-DD only', () => {
    expect(coerceField('shareholdings', 'date', '2024-02-29')).toEqual({ value: '2024-02-29' });
    expect(coerceField('shareholdings', 'date', '2023-02-29')).toEqual({
      error: 'date must be a date YYYY-MM-DD',
    });
    expect(coerceField('optionGrants', 'expiration_date', '03/01/2034')).toEqual({
      error: 'expiration_date must be a date YYYY-MM-DD',
    });
  });

  it('matches enumerations whatever the case, and names the values', () => {
    expect(coerceField('shareClasses', 'class_type', 'preferred')).toEqual({ value: 'PREFERRED' });
    expect(coerceField('organization', 'entity_type', 'LLC')).toEqual({ value: 'llc' });
    expect(coerceField('convertibles', 'convertible_type', 'convertible security')).toEqual({
      value: 'CONVERTIBLE_SECURITY',
    });
    expect(coerceField('people', 'stakeholder_type', 'company')).toEqual({
      error: 'stakeholder_type must be one of INDIVIDUAL, INSTITUTION',
    });
  });

  it('checks and normalises text with the DTO rules', () => {
    expect(coerceField('people', 'email', ' Alice@Acme.IO ')).toEqual({ value: 'alice@acme.io' });
    expect(coerceField('people', 'email', 'alice')).toEqual({ error: 'email must be an email' });
    expect(coerceField('organization', 'country_of_formation', 'de')).toEqual({ value: 'DE' });
    expect(coerceField('organization', 'currency', 'XYZ')).toEqual({
      error: 'currency must be a valid ISO4217 currency code',
    });
    expect(coerceField('people', 'name', 'x'.repeat(201))).toEqual({
      error: 'name must be shorter than or equal to 200 characters',
    });
  });

  it('clears an optional field with an empty text, never a required one', () => {
    expect(coerceField('optionGrants', 'vesting_terms_id', '  ')).toEqual({ value: null });
    expect(coerceField('optionGrants', 'quantity', '')).toEqual({ error: 'quantity is required' });
  });

  it('leaves the model’s own fields alone and names the fields there are', () => {
    for (const field of ['id', 'confidence', 'source']) {
      expect(coerceField('people', field, 'x')).toEqual({
        error: `${field} is not corrected by hand`,
      });
    }
    expect(coerceField('people', 'salary', '1')).toEqual({
      error: 'people has no field salary: name, email, stakeholder_type, title',
    });
    expect(coerceField('people', 'constructor', '1')).toEqual({
      error: 'people has no field constructor: name, email, stakeholder_type, title',
    });
    expect(coerceField('valuations', 'price', '1')).toEqual({
      error: expect.stringMatching(/^no list valuations in a draft: organization, people, /),
    });
  });
});
