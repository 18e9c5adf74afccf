// `node scripts/toolchain.mjs n8n <command>`: the pinned real n8n by hand (IDV_N8N_VERSION=1 for
// the 1.x release).
//   install                    install the pinned n8n into the cache (once) and print where
//   start [--port N] [--dir D] start n8n on loopback with this package installed (Ctrl-C stops it)
//   export-nodes [--dir D]     list the node types n8n loads from this package (n8n export:nodes)
//   exec [--dir D] -- <args>   run any n8n CLI command on a folder (e.g. --dir ~/.cache/n8n-nodes-identity-verification/demo-n8n -- list:workflow)
// Without --dir a throw-away folder is used. The demo's folder is ~/.cache/n8n-nodes-identity-verification/demo-n8n.
//   version                    print the pinned version
import { rmSync } from 'node:fs';
import path from 'node:path';
import {
	DEFAULT_OWNER,
	N8N_VERSION,
	PACKAGE_NAME,
	RestClient,
	describeN8n,
	ensureN8n,
	exportNodes,
	installPackage,
	makeUserFolder,
	n8nCli,
	portIsFree,
	startN8n,
} from './runtime.cjs';

function flag(args: string[], name: string): string | undefined {
	const i = args.indexOf(name);
	return i >= 0 ? args[i + 1] : undefined;
}

async function main(): Promise<number> {
	const [cmd, ...args] = process.argv.slice(2);
	const dir = flag(args, '--dir');
	switch (cmd) {
		case 'version':
			console.log(N8N_VERSION);
			console.error(describeN8n());
			return 0;
		case 'install': {
			const started = Date.now();
			const home = ensureN8n();
			console.log(
				`n8n@${N8N_VERSION} ready in ${home} (${((Date.now() - started) / 1000).toFixed(1)} s)`,
			);
			return 0;
		}
		case 'export-nodes': {
			ensureN8n();
			const userFolder = dir ? path.resolve(dir) : makeUserFolder();
			let nodes;
			try {
				installPackage(userFolder);
				nodes = await exportNodes(userFolder);
			} finally {
				if (!dir) rmSync(userFolder, { recursive: true, force: true });
			}
			const ours = nodes.filter((n) => n.name.startsWith(`${PACKAGE_NAME}.`));
			for (const n of ours)
				console.log(`${n.name}\t${n.displayName}\tv${JSON.stringify(n.version)}`);
			console.log(`${ours.length} node types from ${PACKAGE_NAME} (of ${nodes.length} loaded)`);
			return ours.length > 0 ? 0 : 1;
		}
		case 'start': {
			ensureN8n();
			const userFolder = dir ? path.resolve(dir) : makeUserFolder();
			installPackage(userFolder);
			const wanted = Number(flag(args, '--port') ?? 5678);
			const port = (await portIsFree(wanted)) ? wanted : undefined;
			const n8n = await startN8n({ userFolder, port });
			const rest = new RestClient(n8n.url);
			await rest.setupOwnerOrLogin();
			console.log(`${describeN8n()} with ${PACKAGE_NAME}: ${n8n.url}/`);
			console.log(`Sign in as ${DEFAULT_OWNER.email} / ${DEFAULT_OWNER.password}`);
			console.log(`User folder ${userFolder}; log ${n8n.logFile}. Ctrl-C stops.`);
			await new Promise<void>((resolve) => {
				process.once('SIGINT', resolve);
				process.once('SIGTERM', resolve);
				n8n.child.once('exit', resolve);
			});
			await n8n.stop();
			if (!dir) rmSync(userFolder, { recursive: true, force: true });
			return 0;
		}
		case 'exec': {
			ensureN8n();
			const userFolder = dir ? path.resolve(dir) : makeUserFolder();
			const sep = args.indexOf('--');
			const res = await n8nCli(userFolder, sep >= 0 ? args.slice(sep + 1) : args);
			if (!dir) rmSync(userFolder, { recursive: true, force: true });
			process.stdout.write(res.stdout);
			process.stderr.write(res.stderr);
			return res.status;
		}
		default:
			console.error(
				'usage: node scripts/toolchain.mjs n8n <install|start|export-nodes|exec|version> [--dir D] [--port N]',
			);
			return 2;
	}
}

main().then(
	(code) => process.exit(code),
	(err) => {
		console.error(err instanceof Error ? err.message : err);
		process.exit(1);
	},
);
