// Queue-mode tests: the packed package in the pinned real n8n with Postgres, Redis, webhook
// processes and workers (see test/n8n/queue.cts). One stack per test file.
module.exports = {
	rootDir: '.build',
	testEnvironment: 'node',
	testMatch: ['<rootDir>/test/queue/**/*.test.cjs'],
	moduleFileExtensions: ['cjs', 'js', 'json'],
	testTimeout: 600000,
	maxWorkers: 1,
};
