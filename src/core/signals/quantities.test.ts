import { describe, expect, it } from 'vitest';
import { compareQuantities, quantities } from './quantities.ts';

const rel = (g: string, c: string) => compareQuantities(g, c).relation;

describe('quantities', () => {
  it('reads numbers, number words, fractions, percentages and units', () => {
    expect(quantities('about 3 million people, 1,000 m and a quarter').map((x) => [x.value, x.unit])).toEqual([
      [3e6, ''],
      [1000, 'm'],
      [0.25, ''],
    ]);
    expect(quantities('212 degrees Fahrenheit')[0]).toMatchObject({ value: 212, unit: 'tempF', kind: 'temperature' });
    // An ordinal's suffix is no unit (js-quantities knows "rd" as rods and "st" as stones).
    expect(quantities('3rd, 1st and 4th').map((x) => [x.value, x.kind])).toEqual([
      [3, 'number'],
      [1, 'number'],
      [4, 'number'],
    ]);
  });
  it('the same amount in other units or forms is the same', () => {
    expect(rel('100 °C', 'It boils at 212 degrees Fahrenheit.')).toBe('same');
    expect(rel('1 km', '1000 m')).toBe('same');
    expect(rel('0.5', '50%')).toBe('same');
    expect(rel('one half', '0.5')).toBe('same');
    expect(rel('1/4', 'a quarter')).toBe('same');
    expect(rel('8', 'eight')).toBe('same');
    expect(rel('8,848 m', 'about 29,032 feet')).toBe('same');
    // A bare gold number said with a unit, among other numbers (years) of the answer's sentence.
    expect(rel('56', 'King Henry III reigned for 56 years, from 1216 to 1272.')).toBe('same');
    expect(rel('6', 'The war lasted six years, from 1939 to 1945.')).toBe('same');
  });
  it("a name's number: in numerals, words or digits the same, another number of that name a conflict", () => {
    expect(quantities('Queen Elizabeth II met Louis the Fourteenth')).toEqual([
      { text: 'Elizabeth II', value: 2, unit: '', kind: 'name:elizabeth' },
      { text: 'Louis the Fourteenth', value: 14, unit: '', kind: 'name:louis' },
    ]);
    expect(rel('Henry VIII', 'Henry the Eighth')).toBe('same');
    expect(rel('George III', 'King George the 3rd')).toBe('same');
    expect(rel('Rocky III', 'Rocky 3')).toBe('same');
    expect(rel('Super Bowl LII', 'Super Bowl LII')).toBe('same');
    expect(rel('Elizabeth I', 'Queen Elizabeth II')).toBe('conflict');
    expect(rel('Louis XIV', 'Louis XVI')).toBe('conflict');
    expect(rel('World War I', 'World War II')).toBe('conflict');
    // Another name's number, a pronoun, a digit date: nothing to compare.
    expect(rel('Henry VIII', 'Edward VI')).toBe('none');
    expect(rel('Elizabeth II', 'Then I think Elizabeth.')).toBe('none');
    expect(quantities('Then I think so')).toEqual([]);
    expect(quantities('December 25').map((x) => x.kind)).toEqual(['number', 'month']);
    // A name's number is no bare count said with a unit ("8 wives" is not Henry VIII).
    expect(rel('Henry VIII', 'He had 8 wives')).toBe('none');
  });
  it("a sign said in words, a degree below zero, and plain degrees on the gold's temperature scale", () => {
    expect(quantities('minus forty').map((x) => x.value)).toEqual([-40]);
    expect(quantities('negative 89.2 degrees C')[0]).toMatchObject({ value: -89.2, unit: 'tempC' });
    expect(quantities('−40 °F')[0]).toMatchObject({ value: -40, unit: 'tempF' });
    expect(quantities('forty degrees below zero')[0]).toMatchObject({ value: -40, unit: 'degrees' });
    // A difference, not a sign.
    expect(quantities('5 minus 3').map((x) => x.value)).toEqual([5, 3]);
    expect(rel('minus 40', '-40')).toBe('same');
    expect(rel('-40 °C', '-40 °F')).toBe('same');
    expect(rel('-40 °C', '40 degrees below zero')).toBe('same');
    expect(rel('-40 °C', '40 degrees')).toBe('conflict');
    expect(rel('-40', '40')).toBe('conflict');
    // An angle stays an angle when the gold is no temperature.
    expect(rel('90°', 'a right angle, 90 degrees')).toBe('same');
  });
  it('dates: a month by name or in a numeric date is compared; an unclear day/month order allows either', () => {
    expect(quantities('born on the 3rd of March, 1990').map((x) => [x.kind, x.value])).toEqual([
      ['number', 3],
      ['number', 1990],
      ['month', 3],
    ]);
    // "may" is a month only next to a day or year.
    expect(quantities('It may be 2')).toEqual([expect.objectContaining({ kind: 'number', value: 2 })]);
    expect(rel('March 3, 1990', 'He was born on 3/3/1990.')).toBe('same');
    expect(rel('March 14, 1990', '14.3.1990')).toBe('same');
    expect(rel('March 14, 1990', '3/14/1990')).toBe('same');
    expect(rel('March 14, 1990', '1990-03-14')).toBe('same');
    expect(rel('April 2, 2018', '4/2/2018')).toBe('same');
    expect(rel('February 4, 2018', '4/2/2018')).toBe('same');
    expect(rel('May 2, 2018', '4/2/2018')).toBe('conflict');
    expect(rel('March 3, 1990', 'April 3, 1990')).toBe('conflict');
    expect(rel('March 1990', 'May 1990')).toBe('conflict');
    expect(rel('March 3, 1990', '14/3/1990')).toBe('conflict');
    // Not dates: a fraction, a version-like number, a two-digit year.
    expect(rel('2/3', 'two thirds')).toBe('same');
    expect(quantities('3/14/90').map((x) => x.kind)).not.toContain('month');
  });
  it('an amount in two units is one amount; a gold that gives it in two systems needs it once', () => {
    expect(quantities('6 ft 2 in')).toEqual([{ text: '6 ft 2 in', value: 74, unit: 'inches', kind: 'length' }]);
    expect(rel('6 ft 2 in', '1.88 m')).toBe('same');
    expect(rel('6 ft 2 in', 'six foot two')).toBe('same');
    expect(rel('6\'2"', 'He is 6 feet, 2 inches tall.')).toBe('same');
    expect(rel('6 ft 2 in', '6 ft 3 in')).toBe('conflict');
    expect(rel('8 lb 6 oz', '3.8 kg')).toBe('same');
    expect(rel('2 hours 30 minutes', '150 minutes')).toBe('same');
    expect(rel('2 h 30 min', '2 hours and 40 minutes')).toBe('conflict');
    expect(rel('5.97 m (19 ft 7 in)', '5.97 meters')).toBe('same');
    expect(rel('5.97 m (19 ft 7 in)', '19 feet 7 inches')).toBe('same');
    expect(rel('5.97 m (19 ft 7 in)', '5.90 m')).toBe('conflict');
    // A rounded restatement in other units is no other amount; a different one is.
    expect(rel('24,900 miles', '40,000 km (24,901 mi)')).toBe('same');
    expect(rel('24,900 miles', '24,900 miles, or 50,000 km')).toBe('extra-conflict');
  });
  it('money in short: £50m, $1.2bn, €186k', () => {
    expect(rel('£50m', 'It sold for £50 million.')).toBe('same');
    expect(rel('$1.2bn', '1,200,000,000 dollars')).toBe('same');
    expect(rel('£186k', '£186,000')).toBe('same');
    expect(rel('£50m', '£60 million')).toBe('conflict');
    // Without a currency sign, "50m" is still 50 metres.
    expect(quantities('50m')[0]).toMatchObject({ value: 50, kind: 'length' });
  });
  it('a different value of the same quantity conflicts', () => {
    expect(rel('8', 'Spiders have six legs.')).toBe('conflict');
    expect(rel('100 °C', '100 °F')).toBe('conflict');
    expect(rel('April 15, 1912', 'April 14, 1912')).toBe('conflict');
    expect(rel('1 km', '1 mile')).toBe('conflict');
  });
  it('whole numbers under 10,000 match exactly; an approximate one within 2%, except a year', () => {
    expect(rel('1889', 'It was completed in 1890.')).toBe('conflict');
    expect(rel('1889', 'Around 1890.')).toBe('conflict');
    expect(rel('1969', '1970')).toBe('conflict');
    expect(rel('4,000', '4001')).toBe('conflict');
    expect(rel('4,000', 'about 4,050')).toBe('same');
    expect(rel('40', 'roughly 40')).toBe('same');
    // Large and fractional values keep the rounding tolerance (0.1%).
    expect(rel('299,792', '299,900')).toBe('same');
    expect(rel('3.14159', '3.1416')).toBe('same');
    expect(rel('3.14159', '3.2')).toBe('conflict');
  });
  it('a missing unit is incomplete, a year alone is fewer, unrelated text is none', () => {
    expect(rel('100 °C', '100')).toBe('missing-unit');
    expect(rel('April 15, 1912', '1912')).toBe('fewer');
    expect(rel('Paris', 'Paris')).toBe('none');
    expect(rel('8', 'Spiders are arachnids.')).toBe('none');
  });
});
