// Jest test environment for mutation testing only (stryker.config.mjs): once a test has failed
// while a mutant is active, the mutant is killed, so the remaining tests of that run are skipped.
// (Stryker's jest runner has no bail; without this every mutant ran all of its covering tests,
// some of which wait for Retry-After.) The test sequencer resets the flag at the start of each run.
const { TestEnvironment } = require('jest-environment-node');

const RUN_STATE = Symbol.for('idv.stryker.run');

class MutationTestEnvironment extends TestEnvironment {
	async handleTestEvent(event) {
		const run = globalThis[RUN_STATE];
		if (!run || process.env.__STRYKER_ACTIVE_MUTANT__ === undefined) return;
		if (event.name === 'test_start' && run.failed) event.test.mode = 'skip';
		if (event.name === 'test_done' && event.test.errors.length > 0) run.failed = true;
	}
}

module.exports = MutationTestEnvironment;
module.exports.RUN_STATE = RUN_STATE;
