/**
 * Each check of `npm run verify` (verify.cts) fails on the defect it is for and passes on this
 * repository's own files, so a green verify means something.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import {
	checkChangelog,
	checkEnglishOnly,
	checkLicence,
	checkNoRuntimeDependencies,
	checkReadme,
	checkRepositoryFields,
	checkTarballContents,
	githubSlug,
	type PackageJson,
} from './verify.cjs';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

const REPO = 'https://github.com/acme/n8n-nodes-acme';
const good: PackageJson = {
	name: 'n8n-nodes-acme',
	version: '0.2.0',
	license: 'MIT',
	homepage: `${REPO}#readme`,
	author: { name: 'Acme', url: 'https://github.com/acme' },
	repository: { type: 'git', url: `git+${REPO}.git` },
	bugs: { url: `${REPO}/issues` },
	peerDependencies: { 'n8n-workflow': '*' },
	n8n: {
		nodes: ['dist/nodes/Acme/Acme.node.js'],
		credentials: ['dist/credentials/Acme.credentials.js'],
	},
};
const packed = [
	'LICENSE',
	'README.md',
	'package.json',
	'dist/nodes/Acme/Acme.node.js',
	'dist/credentials/Acme.credentials.js',
];
const MIT = read('LICENSE');
const README = [
	'# n8n-nodes-acme',
	'## Install',
	'## Credentials',
	'## Acme (action node)',
	'## Acme Trigger',
	'## Examples',
	'- Acme → Slack',
].join('\n');

describe('tarball contents', () => {
	test('LICENSE, README, package.json and dist pass', () => {
		expect(checkTarballContents(good, packed)).toEqual([]);
	});
	test('a file outside dist fails', () => {
		expect(checkTarballContents(good, [...packed, 'test/sandbox/cli.cjs'])).toEqual([
			expect.stringContaining('test/sandbox/cli.cjs is in the tarball'),
		]);
	});
	test('a file in dist outside the nodes and credentials fails (n8n-node build copies every picture of the repository into dist)', () => {
		expect(
			checkTarballContents(good, [
				...packed,
				'dist/docs/images/nodes-panel.png',
				'dist/lab/node_modules/js-md4/doc/fonts/OpenSans-Bold-webfont.svg',
			]),
		).toEqual([
			expect.stringContaining('dist/docs/images/nodes-panel.png is in the tarball'),
			expect.stringContaining(
				'dist/lab/node_modules/js-md4/doc/fonts/OpenSans-Bold-webfont.svg is in the tarball',
			),
		]);
	});
	test('a missing LICENSE or node file fails', () => {
		const problems = checkTarballContents(
			good,
			packed.filter((f) => f !== 'LICENSE' && !f.includes('Acme.node')),
		);
		expect(problems).toEqual([
			'LICENSE is missing from the tarball',
			expect.stringContaining('dist/nodes/Acme/Acme.node.js'),
		]);
	});
});

describe('licence', () => {
	test('MIT with its text in the tarball passes', () => {
		expect(checkLicence(good, packed, MIT)).toEqual([]);
	});
	test('another licence field fails', () => {
		expect(checkLicence({ ...good, license: 'ISC' }, packed, MIT)).toEqual([
			expect.stringContaining('not MIT'),
		]);
	});
	test('no LICENSE file fails', () => {
		expect(checkLicence(good, packed, undefined)).toEqual(['there is no LICENSE file']);
	});
	test('a LICENSE that is not the MIT text, or is not packed, fails', () => {
		expect(checkLicence(good, packed, 'All rights reserved.')).toHaveLength(3);
		expect(
			checkLicence(
				good,
				packed.filter((f) => f !== 'LICENSE'),
				MIT,
			),
		).toEqual(['LICENSE is not in the tarball']);
	});
});

describe('runtime dependencies', () => {
	test('none passes', () => {
		expect(checkNoRuntimeDependencies(good)).toEqual([]);
	});
	test('a dependency, a bundled one or another peer fails', () => {
		expect(checkNoRuntimeDependencies({ ...good, dependencies: { axios: '1' } })).toEqual([
			'"dependencies" must be empty, has axios',
		]);
		expect(checkNoRuntimeDependencies({ ...good, bundleDependencies: ['x'] })).toHaveLength(1);
		expect(
			checkNoRuntimeDependencies({ ...good, peerDependencies: { 'n8n-core': '*' } }),
		).toHaveLength(1);
	});
});

describe('English only', () => {
	test('English with symbols and µs passes', () => {
		expect(
			checkEnglishOnly([{ name: 'a', text: 'Settings → API Keys … 5 µs ≤ 10 – “ok”' }]),
		).toEqual([]);
	});
	test('letters of other languages fail, naming file and line', () => {
		expect(checkEnglishOnly([{ name: 'README.md', text: 'ok\nPrüfung der Identität' }])).toEqual([
			'README.md:2: "ü" is not an English letter',
		]);
		expect(checkEnglishOnly([{ name: 'x.js', text: 'displayName: "Проверка"' }])).toHaveLength(1);
	});
});

describe('README', () => {
	test('install, credentials, a section per node and examples pass', () => {
		expect(checkReadme(README, ['Acme', 'Acme Trigger'])).toEqual([]);
	});
	test('a node without a section fails', () => {
		expect(checkReadme(README, ['Acme', 'Acme Lookup'])).toEqual([
			'README.md has no section (## heading) for the node "Acme Lookup"',
		]);
	});
	test('no examples, an empty examples section or no README fails', () => {
		expect(checkReadme(README.replace('## Examples\n- Acme → Slack', ''), ['Acme'])).toEqual([
			'README.md has no "## Examples" section',
		]);
		expect(checkReadme(README.replace('- Acme → Slack', 'Soon.'), ['Acme'])).toEqual([
			'the "## Examples" section of README.md lists no example',
		]);
		expect(checkReadme(undefined, [])).toEqual(['there is no README.md']);
	});
	test('no install or credentials section fails', () => {
		expect(checkReadme(README.replace('## Install', ''), [])).toHaveLength(1);
		expect(checkReadme(README.replace('## Credentials', ''), [])).toHaveLength(1);
	});
});

describe('repository fields', () => {
	test('one repository everywhere passes', () => {
		expect(checkRepositoryFields(good)).toEqual([]);
	});
	test('URL spellings name the same repository', () => {
		for (const url of [
			`git+${REPO}.git`,
			`${REPO}#readme`,
			`${REPO}/issues`,
			'git@github.com:acme/n8n-nodes-acme.git',
		])
			expect(githubSlug(url)).toBe('acme/n8n-nodes-acme');
	});
	test('no repository fails', () => {
		expect(checkRepositoryFields({ ...good, repository: undefined })).toEqual([
			'package.json "repository" does not name a GitHub repository',
		]);
	});
	test('bugs or homepage elsewhere fails', () => {
		expect(
			checkRepositoryFields({
				...good,
				bugs: { url: 'https://github.com/other/n8n-nodes-acme/issues' },
			}),
		).toEqual([expect.stringContaining('"bugs"')]);
		expect(checkRepositoryFields({ ...good, homepage: 'https://acme.example' })).toEqual([
			expect.stringContaining('"homepage"'),
		]);
	});
	test('a repository named otherwise than the package, or no author, fails', () => {
		expect(checkRepositoryFields({ ...good, name: 'n8n-nodes-other' })).toHaveLength(1);
		expect(checkRepositoryFields({ ...good, author: undefined })).toEqual([
			'package.json has no "author" name',
		]);
		expect(
			checkRepositoryFields({ ...good, author: { name: 'A', url: 'https://github.com/else' } }),
		).toHaveLength(1);
	});
});

describe('changelog', () => {
	const changelog =
		'### Changelog\n\n<!-- auto-changelog-above -->\n\n### Unreleased\n\n### 0.2.0\n';
	test('the marker and a section for the version pass', () => {
		expect(checkChangelog(changelog, '0.2.0')).toEqual([]);
		expect(checkChangelog(changelog.replace('### 0.2.0', '#### [0.2.0](url)'), '0.2.0')).toEqual(
			[],
		);
	});
	test('no section for the version, no marker or no file fails', () => {
		expect(checkChangelog(changelog, '0.3.0')).toEqual([
			'CHANGELOG.md has no section for version 0.3.0',
		]);
		expect(checkChangelog(changelog.replace('<!-- auto-changelog-above -->', ''), '0.2.0')).toEqual(
			[expect.stringContaining('marker')],
		);
		expect(checkChangelog(undefined, '0.2.0')).toEqual(['there is no CHANGELOG.md']);
	});
});

describe("this repository's own files", () => {
	const pkg = JSON.parse(read('package.json')) as PackageJson;
	test('pass the offline checks that need no build', () => {
		expect(checkLicence(pkg, ['LICENSE'], MIT)).toEqual([]);
		expect(checkNoRuntimeDependencies(pkg)).toEqual([]);
		expect(checkRepositoryFields(pkg)).toEqual([]);
		expect(checkEnglishOnly([{ name: 'README.md', text: read('README.md') }])).toEqual([]);
		expect(
			checkReadme(read('README.md'), ['Identity Verification', 'Identity Verification Trigger']),
		).toEqual([]);
		expect(checkChangelog(read('CHANGELOG.md'), pkg.version)).toEqual([]);
	});
});
