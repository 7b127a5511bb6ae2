import { describe, expect, it } from 'vitest';
import { indexRange, tableWindow } from './range.ts';

describe('indexRange', () => {
  it('reads like [0, …, n-1] without storing it', () => {
    const r = indexRange(1_000_000);
    expect(r.length).toBe(1_000_000);
    expect(r[0]).toBe(0);
    expect(r[999_999]).toBe(999_999);
    expect(r[1_000_000]).toBeUndefined();
    expect(r[-1]).toBeUndefined();
    expect(999_999 in r).toBe(true);
    expect(1_000_000 in r).toBe(false);
  });

  it('behaves like the real array for the methods a list may use', () => {
    const r = indexRange(5);
    expect(Array.from(r)).toEqual([0, 1, 2, 3, 4]);
    expect(r.slice(1, 3)).toEqual([1, 2]);
    expect(r.map((x) => x * 2)).toEqual([0, 2, 4, 6, 8]);
    expect(Array.isArray(r)).toBe(true);
    expect(indexRange(0).length).toBe(0);
  });

  it('is read-only and refuses a bad length', () => {
    const r = indexRange(3) as number[];
    expect(() => {
      'use strict';
      r[0] = 7;
    }).toThrow(TypeError);
    expect(r[0]).toBe(0);
    expect(() => indexRange(-1)).toThrow(RangeError);
    expect(() => indexRange(1.5)).toThrow(RangeError);
  });
});

describe('tableWindow', () => {
  it('splits a long view into pages and clamps the page', () => {
    expect(tableWindow(1_000_000, 0, 400_000)).toEqual({ page: 0, pages: 3, start: 0, count: 400_000 });
    expect(tableWindow(1_000_000, 2, 400_000)).toEqual({ page: 2, pages: 3, start: 800_000, count: 200_000 });
    expect(tableWindow(1_000_000, 7, 400_000)).toEqual({ page: 2, pages: 3, start: 800_000, count: 200_000 });
    expect(tableWindow(1_000_000, -1, 400_000)).toEqual({ page: 0, pages: 3, start: 0, count: 400_000 });
    expect(tableWindow(800_000, 1, 400_000)).toEqual({ page: 1, pages: 2, start: 400_000, count: 400_000 });
    expect(tableWindow(5, 3, 400_000)).toEqual({ page: 0, pages: 1, start: 0, count: 5 });
    expect(tableWindow(0, 0, 400_000)).toEqual({ page: 0, pages: 1, start: 0, count: 0 });
  });
});
