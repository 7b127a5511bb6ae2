/**
 * Large sections (a run's table, its report, a comparison's tables and charts) mount one per rendered frame.
 * Mounting each in a task of its own was not enough: every task that runs between two frames is drawn by the
 * next one, so a comparison's five sections made one frame of 25 ms of style, layout and paint, which on a busy
 * two-core machine stretched past 50 ms (bench:app). Here the next piece waits until a frame has been drawn.
 */

interface Piece {
  work: () => void;
  cancelled: boolean;
  /** A whenDrawn() check: others do not wait for it (two would wait for each other forever). */
  waiter?: boolean;
}

const queue: Piece[] = [];
let draining = false;
/** A hidden tab draws no frames: go on after this long anyway. */
const NO_FRAME_MS = 100;

/** Settles in a task after the next drawn frame (or after NO_FRAME_MS without one). */
function afterFrame(): Promise<void> {
  return new Promise((resolve) => {
    let done = false;
    const go = () => {
      if (done) return;
      done = true;
      clearTimeout(fallback);
      // rAF callbacks run before the frame's style, layout and paint: the work goes in a task after them.
      setTimeout(resolve, 0);
    };
    const fallback = setTimeout(go, NO_FRAME_MS);
    if (typeof requestAnimationFrame === 'function') requestAnimationFrame(go);
  });
}

async function drain(): Promise<void> {
  draining = true;
  try {
    for (;;) {
      while (queue[0]?.cancelled) queue.shift();
      if (!queue.length) return;
      await afterFrame();
      const piece = queue.shift();
      if (!piece || piece.cancelled) continue;
      try {
        piece.work();
      } catch (e) {
        // One section's failure must not stop the others from mounting; the error still reaches the console.
        (typeof reportError === 'function' ? reportError : console.error)(e);
      }
    }
  } finally {
    draining = false;
  }
}

/** Runs `work` after the next frame, one queued piece per frame, in order; the returned function cancels it. */
export function inOwnFrame(work: () => void, waiter = false): () => void {
  const piece: Piece = { work, cancelled: false, waiter };
  queue.push(piece);
  if (!draining) void drain();
  return () => void (piece.cancelled = true);
}

/**
 * Settles once every piece queued so far, and any they queue in turn, has run, and a frame has been drawn after
 * each: the sections a change mounted are on screen.
 */
export function whenDrawn(): Promise<void> {
  return new Promise((resolve) => {
    const check = () => void (queue.some((p) => !p.cancelled && !p.waiter) ? inOwnFrame(check, true) : resolve());
    inOwnFrame(check, true);
  });
}

/**
 * Raises `hold` (the page's claim on the cores, workers.ts `holdCores`) now and lets go once the change about to
 * be drawn is on screen (whenDrawn): for a frame that mounts rows or sections, which may take several frames.
 */
export function holdUntilDrawn(hold: () => () => void): void {
  void whenDrawn().then(hold());
}

/**
 * Raises `hold` for the next frame only: from its animation callbacks, before its style, layout and paint, until
 * a task after it. While a run scores on every core, a frame of 2–6 ms of work that shows the run's progress
 * waited for a core and stretched past 50 ms (bench:app --trace); held from the change instead (holdUntilDrawn),
 * the workers also waited for the frame to come, and scoring was slower. A tab that draws no frames holds nothing.
 */
export function holdNextFrame(hold: () => () => void): void {
  if (typeof requestAnimationFrame !== 'function') return;
  requestAnimationFrame(() => {
    const release = hold();
    setTimeout(release, 0);
  });
}
