// Mutation testing (the lab's `npm run mutation`, run from the repository's root): Stryker changes the
// shipped code (nodes/, credentials/) one small edit at a time and runs the unit tests that cover the
// edit; a mutant that no test notices ("survived") points at behaviour the tests do not pin.
// Reports: lab/reports/mutation/ (HTML and JSON).
// The TypeScript is mutated with mutant schemata (all mutants in one build), compiled once by tsc
// into .build/ inside Stryker's sandbox, and jest runs the compiled tests from there.
import { fileURLToPath } from 'node:url';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
	packageManager: 'npm',
	testRunner: 'jest',
	plugins: [
		'@stryker-mutator/jest-runner',
		fileURLToPath(new URL('stryker-ignore-descriptions.mjs', import.meta.url)),
	],
	ignorers: ['descriptions'],
	buildCommand: 'tsc -p tsconfig.test.json',
	jest: {
		configFile: 'jest.config.cjs',
		// jest runs the compiled tests in .build/, so it cannot relate them to a mutated .ts file;
		// the per-test coverage picks the tests instead.
		enableFindRelatedTests: false,
		// Only the tests of the shipped code: the sandbox's own tests do not exercise nodes/.
		config: {
			testPathIgnorePatterns: [
				'/node_modules/',
				'<rootDir>/test/e2e/',
				'<rootDir>/test/sandbox/',
				'<rootDir>/test/demo/',
				'<rootDir>/test/queue/',
			],
			testSequencer: fileURLToPath(new URL('jest-stryker-sequencer.cjs', import.meta.url)),
			testEnvironment: fileURLToPath(new URL('jest-stryker-environment.cjs', import.meta.url)),
		},
	},
	coverageAnalysis: 'perTest',
	mutate: [
		'nodes/**/*.ts',
		'credentials/**/*.ts',
		// types only
		'!nodes/**/types.ts',
	],
	// Module-level constants (the zod contract, retry constants) are evaluated when a module loads,
	// so every test would have to run for each of them; they are left out.
	ignoreStatic: true,
	disableTypeChecks: '{nodes,credentials,test}/**/*.{ts,cts}',
	// The lab itself (and its node_modules) stays out of Stryker's copy of the repository.
	ignorePatterns: ['.build', 'dist', 'coverage', 'lab'],
	concurrency: 2,
	timeoutMS: 5000,
	reporters: ['html', 'json', 'clear-text', 'progress'],
	htmlReporter: { fileName: 'lab/reports/mutation/index.html' },
	jsonReporter: { fileName: 'lab/reports/mutation/mutation.json' },
	thresholds: { high: 90, low: 80, break: 75 },
	tempDirName: 'lab/.stryker-tmp',
	// `--incremental` keeps the results of unchanged mutants and tests here, so a later run only
	// tests what a change touched.
	incrementalFile: 'lab/reports/mutation/stryker-incremental.json',
};
