// Tests are written in TypeScript as .cts files (outside nodes/ and credentials/, so n8n's lint of
// shipped code never sees them) and compiled by `tsc -p tsconfig.test.json` into .build/ first.
module.exports = {
	rootDir: '.build',
	testEnvironment: 'node',
	testMatch: ['<rootDir>/test/**/*.test.cjs'],
	testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/e2e/', '<rootDir>/test/queue/'],
	moduleFileExtensions: ['cjs', 'js', 'json'],
	testTimeout: 60000,
	maxWorkers: 2,
};
