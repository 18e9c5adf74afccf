// Tests are written in TypeScript as .cts files (outside nodes/ and credentials/, so n8n's lint of
// shipped code never sees them) and compiled by `tsc -p tsconfig.test.json` into .build/ first.
module.exports = {
	rootDir: '.build',
	testEnvironment: 'node',
	testMatch: ['<rootDir>/test/**/*.test.cjs'],
	testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/e2e/', '<rootDir>/test/queue/'],
	moduleFileExtensions: ['cjs', 'js', 'json'],
	// json-schema-faker publishes only an ES module (an `import` entry): jest is pointed at its file
	// and TypeScript rewrites it to CommonJS. Nothing else is transformed: tsc compiled the tests.
	moduleNameMapper: {
		'^json-schema-faker$': '<rootDir>/../node_modules/json-schema-faker/dist/index.js',
	},
	transform: {
		'/node_modules/json-schema-faker/.+\\.js$': '<rootDir>/../scripts/jest-esm-to-cjs.cjs',
	},
	transformIgnorePatterns: ['/node_modules/(?!json-schema-faker/)'],
	testTimeout: 60000,
	maxWorkers: 2,
};
