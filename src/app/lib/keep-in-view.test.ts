/** A followed link's line stays in view while the page grows above it, until the reader takes over. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { keepInView } from './keep-in-view.ts';

describe('keepInView', () => {
  let resize: (() => void)[] = [];
  let disconnected = 0;
  const listeners = new Map<string, Set<() => void>>();
  const fire = (type: string) => [...(listeners.get(type) ?? [])].forEach((f) => f());

  beforeEach(() => {
    resize = [];
    disconnected = 0;
    listeners.clear();
    vi.stubGlobal(
      'ResizeObserver',
      class {
        constructor(private cb: () => void) {}
        observe() {
          resize.push(this.cb);
          this.cb(); // as browsers do: one call when observing starts
        }
        disconnect() {
          disconnected++;
          resize = resize.filter((f) => f !== this.cb);
        }
      },
    );
    vi.stubGlobal('addEventListener', (type: string, f: () => void) => {
      if (!listeners.has(type)) listeners.set(type, new Set());
      listeners.get(type)!.add(f);
    });
    vi.stubGlobal('removeEventListener', (type: string, f: () => void) => listeners.get(type)?.delete(f));
  });
  afterEach(() => vi.unstubAllGlobals());

  const target = () => ({ scrollIntoView: vi.fn() });

  it('scrolls the line into view at once and again each time the content changes size', () => {
    const line = target();
    keepInView(line as unknown as Element, {} as Element);
    expect(line.scrollIntoView).toHaveBeenCalledTimes(1);
    expect(line.scrollIntoView).toHaveBeenCalledWith({ block: 'center' });
    resize.forEach((f) => f());
    resize.forEach((f) => f());
    expect(line.scrollIntoView).toHaveBeenCalledTimes(3);
  });

  for (const type of ['wheel', 'touchstart', 'pointerdown', 'keydown']) {
    it(`stops at the reader's first ${type}, and listens no more`, () => {
      const line = target();
      keepInView(line as unknown as Element, {} as Element);
      fire(type);
      resize.forEach((f) => f());
      expect(line.scrollIntoView).toHaveBeenCalledTimes(1);
      expect(disconnected).toBe(1);
      expect([...listeners.values()].every((s) => s.size === 0)).toBe(true);
    });
  }

  it('stops when told (another term shown, or the page left)', () => {
    const line = target();
    const stop = keepInView(line as unknown as Element, {} as Element);
    stop();
    resize.forEach((f) => f());
    expect(line.scrollIntoView).toHaveBeenCalledTimes(1);
    expect([...listeners.values()].every((s) => s.size === 0)).toBe(true);
  });
});
