// The queue-mode smoke test: the packed package in the pinned real n8n with Postgres, Redis, a
// webhook process and a worker (see test/n8n/queue.cts). As the e2e tests, but its own files and a
// longer timeout. The load runs are the lab's (lab/queue/).
module.exports = {
	...require('./jest.e2e.config.cjs'),
	testMatch: ['<rootDir>/test/queue/**/*.test.cjs'],
	testTimeout: 600000,
};
