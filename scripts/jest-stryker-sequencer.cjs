// Jest test sequencer for mutation testing only (stryker.config.mjs). Stryker runs the tests that
// cover a mutant by name (`testNamePattern`), but jest would still load every test file to find
// them, and loading n8n's engine costs about a second per file. The full first run (no pattern)
// records which file holds which test; every later run loads only the files with a matching test.
const fs = require('node:fs');
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

const MAP_FILE = path.join(process.cwd(), '.stryker-test-names.json');

class MutationSequencer extends Sequencer {
	constructor(options) {
		super(options);
		this.pattern = options.globalConfig.testNamePattern;
	}

	sort(tests) {
		if (!this.pattern || !fs.existsSync(MAP_FILE)) return super.sort(tests);
		const namesByFile = JSON.parse(fs.readFileSync(MAP_FILE, 'utf8'));
		const pattern = new RegExp(this.pattern, 'i');
		const wanted = tests.filter((test) => {
			const names = namesByFile[test.path];
			return !names || names.some((name) => pattern.test(name));
		});
		return wanted.length > 0 ? wanted : tests;
	}

	cacheResults(tests, results) {
		if (!this.pattern) {
			const namesByFile = {};
			for (const file of results.testResults) {
				namesByFile[file.testFilePath] = file.testResults.map((test) => test.fullName);
			}
			fs.writeFileSync(MAP_FILE, JSON.stringify(namesByFile));
		}
		super.cacheResults(tests, results);
	}
}

module.exports = MutationSequencer;
