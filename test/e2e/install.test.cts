// The README's Installation, run as written: its shell blocks are read from README.md and run as
// they stand. The package file is made by the README's commands in this clone (`npm ci` excepted:
// the e2e run has installed the dependencies), installed into a fresh home folder by the commands
// for n8n installed with npm, and the pinned real n8n started on that folder lists both nodes.
// Docker cannot run on the test machines (no engine): the command the README runs inside the
// container (`docker exec n8n sh -c '…'`) runs here on its own, in another home folder, with the
// container's /tmp/ a folder of this machine; what `docker cp` and `docker restart` do is Docker's.
import { spawnSync } from 'node:child_process';
import {
	copyFileSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	renameSync,
	rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEFAULT_OWNER, PACKAGE_NAME, ROOT, startN8n, type N8nInstance } from '../n8n/runtime.cjs';
import { NODE_TYPES } from '../n8n/stack.cjs';

const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const VERSION: string = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;

/** The README's section under `## <title>`, up to the next `## ` heading. */
function section(title: string): string {
	const start = README.indexOf(`\n## ${title}\n`);
	if (start < 0) throw new Error(`README.md has no "## ${title}" section`);
	const end = README.indexOf('\n## ', start + 1);
	return README.slice(start, end < 0 ? undefined : end);
}

/** The `sh` blocks of a README section, without the indentation of the list item they sit in. */
function shellBlocks(text: string): string[] {
	return [...text.matchAll(/^( *)```sh\n([\s\S]*?)^ *```$/gm)].map(([, indent, body]) =>
		body
			.split('\n')
			.map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line))
			.join('\n')
			.trim(),
	);
}

const BLOCKS = shellBlocks(section('Installation'));
/** The block whose lines include `marker` (each block is found by what it does). */
function blockWith(marker: string): string {
	const found = BLOCKS.filter((block) => block.includes(marker));
	if (found.length !== 1)
		throw new Error(`README.md › Installation: ${found.length} blocks with "${marker}"`);
	return found[0];
}

/** Runs shell lines with `sh -e` (stops at the first failing line) in `cwd` with that HOME. */
function sh(script: string, cwd: string, home: string): string {
	const res = spawnSync('sh', ['-e', '-c', script], {
		cwd,
		env: { ...process.env, HOME: home },
		encoding: 'utf8',
	});
	if (res.status !== 0)
		throw new Error(`sh failed (exit ${res.status}):\n${script}\n${res.stdout}\n${res.stderr}`);
	return res.stdout;
}

/** The node types the running n8n's editor loads (GET /types/nodes.json, signed in as the owner). */
async function editorNodeTypes(n8n: N8nInstance): Promise<string[]> {
	const setup = await fetch(`${n8n.url}/rest/owner/setup`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(DEFAULT_OWNER),
	});
	const cookie = setup.headers.getSetCookie().find((c) => c.startsWith('n8n-auth='));
	expect(cookie).toBeDefined();
	const res = await fetch(`${n8n.url}/types/nodes.json`, {
		headers: { cookie: cookie!.split(';')[0] },
	});
	expect(res.status).toBe(200);
	return ((await res.json()) as Array<{ name: string }>).map((type) => type.name);
}

/** The package as it landed under `<home>/.n8n/nodes`, where n8n loads community packages from. */
function installedUnder(home: string): { version: string; nodes: string[]; copies: string[] } {
	const modules = path.join(home, '.n8n', 'nodes', 'node_modules');
	const pkg = JSON.parse(readFileSync(path.join(modules, PACKAGE_NAME, 'package.json'), 'utf8'));
	const files = [...pkg.n8n.nodes, ...pkg.n8n.credentials] as string[];
	for (const file of files) expect(existsSync(path.join(modules, PACKAGE_NAME, file))).toBe(true);
	const copies = readdirSync(modules).filter((name) => !name.startsWith('.'));
	return { version: pkg.version, nodes: pkg.n8n.nodes, copies };
}

const work = mkdtempSync(path.join(tmpdir(), 'idv-readme-install-'));
let tarball: string;
let n8n: N8nInstance | undefined;

afterAll(async () => {
	await n8n?.stop();
	rmSync(work, { recursive: true, force: true });
}, 60_000);

describe("the README's installation, run as written", () => {
	test('says the package is not on npm yet, and what n8n Cloud needs', () => {
		const text = section('Installation');
		expect(text).toMatch(/not on the npm registry yet/);
		expect(text).toMatch(/\*\*n8n Cloud\*\* only installs community nodes that n8n has verified/);
		expect(BLOCKS).toHaveLength(3);
	});

	test(
		'its commands in a clone make the package file',
		() => {
			const make = blockWith('npm pack');
			expect(make.split('\n')[0]).toBe('npm ci');
			for (const old of readdirSync(ROOT).filter((f) => f.endsWith('.tgz')))
				rmSync(path.join(ROOT, old));
			// `npm ci` excepted: the dependencies of this clone are installed (the e2e run needs them).
			sh(make.split('\n').slice(1).join('\n'), ROOT, work);
			const made = readdirSync(ROOT).filter((f) => f.endsWith('.tgz'));
			expect(made).toEqual([`${PACKAGE_NAME}-${VERSION}.tgz`]);
			tarball = path.join(work, made[0]);
			renameSync(path.join(ROOT, made[0]), tarball);
		},
		10 * 60_000,
	);

	test(
		'n8n installed with npm: the commands install it into ~/.n8n/nodes; n8n starts and its editor lists both nodes',
		async () => {
			const home = path.join(work, 'home');
			mkdirSync(home);
			copyFileSync(tarball, path.join(home, path.basename(tarball)));
			sh(blockWith('npm install --omit=peer ~/'), home, home);
			const installed = installedUnder(home);
			expect(installed.version).toBe(VERSION);
			// --omit=peer: no copy of n8n-workflow beside it (n8n provides its own).
			expect(installed.copies).toEqual([PACKAGE_NAME]);
			n8n = await startN8n({ userFolder: home, log: () => undefined });
			const types = await editorNodeTypes(n8n);
			expect(types).toEqual(expect.arrayContaining([NODE_TYPES.action, NODE_TYPES.trigger]));
		},
		10 * 60_000,
	);

	test(
		"n8n in Docker: the command run inside the container installs it the same way (run here without Docker, the container's /tmp/ a local folder)",
		() => {
			const docker = blockWith('docker exec');
			const copy = docker.match(/^docker cp (\S+) n8n:(\/\S+\/)$/m);
			const exec = docker.match(/^docker exec n8n sh -c '([^']+)'$/m);
			expect(copy).not.toBeNull();
			expect(exec).not.toBeNull();
			const [, source, containerDir] = copy!;
			expect(source).toBe(`${PACKAGE_NAME}-*.tgz`);
			const home = path.join(work, 'container-home');
			const containerTmp = path.join(work, 'container-tmp');
			mkdirSync(home);
			mkdirSync(containerTmp);
			copyFileSync(tarball, path.join(containerTmp, path.basename(tarball)));
			const inside = exec![1].split(containerDir).join(`${containerTmp}/`);
			sh(inside, home, home);
			const installed = installedUnder(home);
			expect(installed.version).toBe(VERSION);
			expect(installed.copies).toEqual([PACKAGE_NAME]);
			// The image's n8n runs as user `node` with its data in /home/node/.n8n (n8n's Dockerfile).
			expect(section('Installation')).toContain('/home/node/.n8n');
		},
		10 * 60_000,
	);
});
