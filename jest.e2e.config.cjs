// End-to-end tests: the packed package inside the pinned real n8n (see test/n8n/).
module.exports = {
	rootDir: '.build',
	testEnvironment: 'node',
	testMatch: ['<rootDir>/test/e2e/**/*.test.cjs'],
	moduleFileExtensions: ['cjs', 'js', 'json'],
	// As in jest.config.cjs: the real-service test generates webhook bodies with json-schema-faker.
	moduleNameMapper: {
		'^json-schema-faker$': '<rootDir>/../node_modules/json-schema-faker/dist/index.js',
	},
	transform: {
		'/node_modules/json-schema-faker/.+\\.js$': '<rootDir>/../scripts/jest-esm-to-cjs.cjs',
	},
	transformIgnorePatterns: ['/node_modules/(?!json-schema-faker/)'],
	testTimeout: 300000,
	maxWorkers: 1,
};
