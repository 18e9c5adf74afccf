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
	// A test file that runs n8n-core's engine leaves its whole vm context behind (10 to 25 MB: Node
	// keeps an API function made in it from an eternal template), so a worker grows file by file and
	// its exit outlasts jest's 500 ms; a worker past this size is replaced after its file.
	workerIdleMemoryLimit: '300MB',
};
