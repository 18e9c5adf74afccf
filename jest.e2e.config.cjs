// End-to-end tests: the packed package inside the pinned real n8n (see test/n8n/).
module.exports = {
	rootDir: '.build',
	testEnvironment: 'node',
	testMatch: ['<rootDir>/test/e2e/**/*.test.cjs'],
	moduleFileExtensions: ['cjs', 'js', 'json'],
	testTimeout: 300000,
	maxWorkers: 1,
};
