// What `npm run mutation:changed` mutates: the shipped lines a commit changed, within a budget of
// lines, so the run's time does not grow with the size of the commit (whole files of a large change
// once took hours). Plain CommonJS so that lab/run.mjs and the unit test both load it.
'use strict';

/** At most this many changed lines are mutated (run.mjs's core, signature.ts and retry.ts, take about 10 minutes on 2 cores). */
const LINE_BUDGET = 200;

/** Shipped TypeScript whose mutants mean something: not the type-only files. */
function isMutable(file) {
	return /^(nodes|credentials)\/.*\.ts$/.test(file) && !/(^|\/)(types|node\.type)\.ts$/.test(file);
}

/**
 * The changed line ranges of each file in a `git diff -U0` text, in the new file's numbering:
 * [{ file, start, end }] in diff order (deleted-only hunks have no new lines and are left out).
 */
function changedRanges(diff) {
	const ranges = [];
	let file;
	for (const line of diff.split('\n')) {
		const target = /^\+\+\+ (?:b\/(.*)|\/dev\/null)$/.exec(line);
		if (target) {
			file = target[1];
			continue;
		}
		const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/.exec(line);
		if (!hunk || !file || !isMutable(file)) continue;
		const start = Number(hunk[1]);
		const count = hunk[2] === undefined ? 1 : Number(hunk[2]);
		if (count > 0) ranges.push({ file, start, end: start + count - 1 });
	}
	return ranges;
}

/**
 * Ranges within `budget` lines: one range of each file in turn (so every changed file gets some),
 * the last one cut to what is left. Returns the chosen ranges and how many lines were left out.
 */
function withinBudget(ranges, budget = LINE_BUDGET) {
	const queues = new Map();
	for (const range of ranges) {
		if (!queues.has(range.file)) queues.set(range.file, []);
		queues.get(range.file).push(range);
	}
	const chosen = [];
	let left = budget;
	while (left > 0 && [...queues.values()].some((queue) => queue.length > 0)) {
		for (const queue of queues.values()) {
			const range = queue.shift();
			if (!range || left === 0) continue;
			const lines = Math.min(range.end - range.start + 1, left);
			chosen.push({ file: range.file, start: range.start, end: range.start + lines - 1 });
			left -= lines;
		}
	}
	const total = ranges.reduce((sum, range) => sum + range.end - range.start + 1, 0);
	return { chosen, leftOut: total - (budget - left) };
}

/** Stryker's `--mutate` entries (`file:start-end`) for the chosen ranges. */
function mutatePatterns(ranges) {
	return ranges.map((range) => `${range.file}:${range.start}-${range.end}`);
}

module.exports = { LINE_BUDGET, changedRanges, withinBudget, mutatePatterns };
