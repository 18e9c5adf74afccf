// Queue-mode tests: the packed package in the pinned real n8n with Postgres, Redis, webhook
// processes and workers (see test/n8n/queue.cts). One stack per test file. As the e2e tests, but
// their own files and a longer timeout.
module.exports = {
	...require('./jest.e2e.config.cjs'),
	testMatch: ['<rootDir>/test/queue/**/*.test.cjs'],
	testTimeout: 600000,
};
