/**
 * `npm run mutation:changed` (mutation-ranges.cjs): it mutates the shipped lines a commit changed,
 * never more than its line budget, so a large commit cannot make the run take hours.
 */
import path from 'node:path';

interface Range {
	file: string;
	start: number;
	end: number;
}
// The script is plain CommonJS outside the compiled tree: loaded from the repository.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const ranges = require(path.resolve(__dirname, '../../../lab/mutation/mutation-ranges.cjs')) as {
	LINE_BUDGET: number;
	changedRanges(diff: string): Range[];
	withinBudget(ranges: Range[], budget?: number): { chosen: Range[]; leftOut: number };
	mutatePatterns(ranges: Range[]): string[];
};

const diff = [
	'diff --git a/nodes/a.ts b/nodes/a.ts',
	'--- a/nodes/a.ts',
	'+++ b/nodes/a.ts',
	'@@ -3,0 +4,2 @@ function a() {',
	'+one',
	'+two',
	'@@ -10 +12 @@',
	'-old',
	'+new',
	'@@ -20,3 +21,0 @@',
	'diff --git a/nodes/x/types.ts b/nodes/x/types.ts',
	'+++ b/nodes/x/types.ts',
	'@@ -1 +1 @@',
	'diff --git a/credentials/C.credentials.ts b/credentials/C.credentials.ts',
	'+++ b/credentials/C.credentials.ts',
	'@@ -0,0 +1,40 @@',
	'diff --git a/nodes/gone.ts b/nodes/gone.ts',
	'+++ /dev/null',
	'@@ -1,9 +0,0 @@',
	'diff --git a/nodes/a.json b/nodes/a.json',
	'+++ b/nodes/a.json',
	'@@ -1 +1 @@',
].join('\n');

test('the changed lines of shipped TypeScript, in the new numbering; types, deletions and JSON left out', () => {
	expect(ranges.changedRanges(diff)).toEqual([
		{ file: 'nodes/a.ts', start: 4, end: 5 },
		{ file: 'nodes/a.ts', start: 12, end: 12 },
		{ file: 'credentials/C.credentials.ts', start: 1, end: 40 },
	]);
});

test('within the budget, every file gets a range before any gets a second one', () => {
	const all = ranges.changedRanges(diff);
	expect(ranges.withinBudget(all, 10)).toEqual({
		chosen: [
			{ file: 'nodes/a.ts', start: 4, end: 5 },
			{ file: 'credentials/C.credentials.ts', start: 1, end: 8 },
		],
		leftOut: 33,
	});
	expect(ranges.withinBudget(all, 1000)).toEqual({
		chosen: [all[0], all[2], all[1]],
		leftOut: 0,
	});
});

test('a commit of any size is cut to the budget', () => {
	const huge = Array.from({ length: 50 }, (_, i) => ({
		file: `nodes/f${i % 7}.ts`,
		start: 1 + i * 100,
		end: 90 + i * 100,
	}));
	const { chosen, leftOut } = ranges.withinBudget(huge);
	const lines = chosen.reduce((sum, r) => sum + r.end - r.start + 1, 0);
	expect(lines).toBe(ranges.LINE_BUDGET);
	expect(leftOut).toBe(50 * 90 - ranges.LINE_BUDGET);
	expect(new Set(chosen.map((r) => r.file)).size).toBe(3);
});

test("Stryker's range form: file:start-end", () => {
	expect(ranges.mutatePatterns([{ file: 'nodes/a.ts', start: 4, end: 5 }])).toEqual([
		'nodes/a.ts:4-5',
	]);
});
