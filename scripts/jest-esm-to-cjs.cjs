// A jest transform for packages that publish only ES modules (json-schema-faker, used by the tests of
// test/real-service/): jest runs the tests as CommonJS and can load an ES module only with Node's
// --experimental-vm-modules, so TypeScript rewrites its import/export syntax to CommonJS.
const ts = require('typescript');

module.exports = {
	process(source, filename) {
		const { outputText } = ts.transpileModule(source, {
			fileName: filename,
			compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
		});
		return { code: outputText };
	},
};
