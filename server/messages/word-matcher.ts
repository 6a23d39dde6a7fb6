/**
 * Which runs of two word lists are the same, found the way Zulip's diff
 * finds them (Python's SequenceMatcher, as lxml's htmldiff uses it): the
 * longest common run first (the earliest one on a tie), then the same on
 * each side of it, words frequent in a long text never starting a run; runs of at most min(2, new words / 4) words between
 * changes are not kept as equal, so one shared word does not split a
 * rewritten sentence into pieces.
 */

export type Opcode = {
  kind: 'equal' | 'replace' | 'delete' | 'insert';
  oldStart: number;
  oldEnd: number;
  newStart: number;
  newEnd: number;
};

const POPULAR_FROM_LENGTH = 200;
/**
 * Comparisons one diff may make (about 0.1 s here). Past it, what is left
 * unmatched counts as replaced: a slower, finer diff of a pathological
 * edit is not worth holding up the server.
 */
const WORK_BUDGET = 10_000_000;

/** Where each word of `b` is, and scratch rows for the run lengths (kept zeroed between uses). */
interface BIndex {
  positions: Map<string, number[]>;
  runs: Int32Array;
  nextRuns: Int32Array;
}

interface Run {
  oldStart: number;
  newStart: number;
  size: number;
}

/** The longest run equal in both ranges; the one ending first in `a` on a tie, then first in `b`. */
function longestRun(
  a: readonly string[],
  b: readonly string[],
  index: BIndex,
  budget: { left: number },
  aLo: number,
  aHi: number,
  bLo: number,
  bHi: number,
): Run {
  let best: Run = { oldStart: aLo, newStart: bLo, size: 0 };
  // runs[j + 1]: length of the run ending at b[j], for the previous a position.
  let { runs, nextRuns } = index;
  let set: number[] = [];
  for (let i = aLo; i < aHi; i++) {
    const positions = index.positions.get(a[i]!) ?? [];
    budget.left -= positions.length + 1;
    if (budget.left < 0) {
      best = { oldStart: aLo, newStart: bLo, size: 0 };
      break;
    }
    const nextSet: number[] = [];
    for (const j of positions) {
      if (j < bLo) continue;
      if (j >= bHi) break;
      const size = runs[j]! + 1;
      nextRuns[j + 1] = size;
      nextSet.push(j + 1);
      if (size > best.size) best = { oldStart: i - size + 1, newStart: j - size + 1, size };
    }
    for (const k of set) runs[k] = 0;
    [runs, nextRuns] = [nextRuns, runs];
    set = nextSet;
  }
  for (const k of set) runs[k] = 0;
  // Popular words start no run, but a run grows over them.
  while (
    best.oldStart > aLo &&
    best.newStart > bLo &&
    a[best.oldStart - 1] === b[best.newStart - 1]
  ) {
    best = { oldStart: best.oldStart - 1, newStart: best.newStart - 1, size: best.size + 1 };
  }
  while (
    best.oldStart + best.size < aHi &&
    best.newStart + best.size < bHi &&
    a[best.oldStart + best.size] === b[best.newStart + best.size]
  ) {
    best.size++;
  }
  return best;
}

function matchingRuns(a: readonly string[], b: readonly string[]): Run[] {
  const positions = new Map<string, number[]>();
  b.forEach((word, j) => {
    const list = positions.get(word);
    if (list) list.push(j);
    else positions.set(word, [j]);
  });
  // In a long text, a word on more than 1% of the positions is "popular" (difflib's
  // autojunk): it starts no run. This also bounds the work on repetitive text.
  if (b.length >= POPULAR_FROM_LENGTH) {
    const limit = Math.floor(b.length / 100) + 1;
    for (const [word, list] of positions) if (list.length > limit) positions.delete(word);
  }
  const index: BIndex = {
    positions,
    runs: new Int32Array(b.length + 1),
    nextRuns: new Int32Array(b.length + 1),
  };
  const budget = { left: WORK_BUDGET };
  const runs: Run[] = [];
  const pending: [number, number, number, number][] = [[0, a.length, 0, b.length]];
  while (pending.length > 0) {
    const [aLo, aHi, bLo, bHi] = pending.pop()!;
    const run = longestRun(a, b, index, budget, aLo, aHi, bLo, bHi);
    if (run.size === 0) continue;
    runs.push(run);
    if (aLo < run.oldStart && bLo < run.newStart) {
      pending.push([aLo, run.oldStart, bLo, run.newStart]);
    }
    if (run.oldStart + run.size < aHi && run.newStart + run.size < bHi) {
      pending.push([run.oldStart + run.size, aHi, run.newStart + run.size, bHi]);
    }
  }
  runs.sort((x, y) => x.oldStart - y.oldStart || x.newStart - y.newStart);
  // Adjacent runs are one run.
  const merged: Run[] = [];
  for (const run of runs) {
    const last = merged.at(-1);
    if (
      last &&
      last.oldStart + last.size === run.oldStart &&
      last.newStart + last.size === run.newStart
    ) {
      last.size += run.size;
    } else {
      merged.push({ ...run });
    }
  }
  return merged;
}

/** Equal, replaced, deleted and inserted ranges that turn `a` into `b`, in order. */
export function wordOpcodes(a: readonly string[], b: readonly string[]): Opcode[] {
  const shortest = Math.min(2, b.length / 4);
  const runs = matchingRuns(a, b).filter((run) => run.size > shortest);
  runs.push({ oldStart: a.length, newStart: b.length, size: 0 });
  const ops: Opcode[] = [];
  let i = 0;
  let j = 0;
  for (const run of runs) {
    const kind =
      i < run.oldStart && j < run.newStart
        ? 'replace'
        : i < run.oldStart
          ? 'delete'
          : j < run.newStart
            ? 'insert'
            : undefined;
    if (kind)
      ops.push({ kind, oldStart: i, oldEnd: run.oldStart, newStart: j, newEnd: run.newStart });
    i = run.oldStart + run.size;
    j = run.newStart + run.size;
    if (run.size > 0) {
      ops.push({
        kind: 'equal',
        oldStart: run.oldStart,
        oldEnd: i,
        newStart: run.newStart,
        newEnd: j,
      });
    }
  }
  return ops;
}
