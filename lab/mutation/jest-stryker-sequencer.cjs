// Jest test sequencer for mutation testing only (stryker.config.mjs). Stryker runs the tests that
// cover a mutant by name (`testNamePattern`), but jest would still load every test file to find
// them, and loading n8n's engine costs about a second per file. The full first run (no pattern)
// records which file holds which test and how long the file took; every later run loads only the
// files with a matching test, fastest first (the first failure ends the run: see
// jest-stryker-environment.cjs, whose per-run flag is reset here).
const fs = require('node:fs');
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;
const { RUN_STATE } = require('./jest-stryker-environment.cjs');

const MAP_FILE = path.join(process.cwd(), '.stryker-test-names.json');

class MutationSequencer extends Sequencer {
	constructor(options) {
		super(options);
		this.pattern = options.globalConfig.testNamePattern;
	}

	sort(tests) {
		// Every mutant run starts without a failure, also the runs of all tests (static mutants).
		if (process.env.__STRYKER_ACTIVE_MUTANT__ !== undefined)
			globalThis[RUN_STATE] = { failed: false };
		if (!this.pattern || !fs.existsSync(MAP_FILE)) return super.sort(tests);
		const files = JSON.parse(fs.readFileSync(MAP_FILE, 'utf8'));
		const pattern = new RegExp(this.pattern, 'i');
		const wanted = tests.filter((test) => {
			const file = files[test.path];
			return !file || file.names.some((name) => pattern.test(name));
		});
		const ms = (test) => files[test.path]?.ms ?? 0;
		return (wanted.length > 0 ? wanted : tests).sort((a, b) => ms(a) - ms(b));
	}

	cacheResults(tests, results) {
		if (!this.pattern) {
			const files = {};
			for (const file of results.testResults) {
				files[file.testFilePath] = {
					names: file.testResults.map((test) => test.fullName),
					ms: file.perfStats.end - file.perfStats.start,
				};
			}
			fs.writeFileSync(MAP_FILE, JSON.stringify(files));
		}
		super.cacheResults(tests, results);
	}
}

module.exports = MutationSequencer;
