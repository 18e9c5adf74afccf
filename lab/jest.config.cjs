// The lab's tests, run compiled from .build/lab/ (lab/tsconfig.json): the mutation helpers' unit
// test (`npm test`) and the queue-mode load runs (`npm run queue`: one stack per file, long timeouts).
const path = require('node:path');

module.exports = {
	rootDir: path.join(__dirname, '..', '.build', 'lab'),
	testEnvironment: 'node',
	testMatch: ['<rootDir>/**/*.test.cjs'],
	moduleFileExtensions: ['cjs', 'js', 'json'],
	testTimeout: 600000,
	maxWorkers: 1,
};
