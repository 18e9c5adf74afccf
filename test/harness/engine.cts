/**
 * n8n-core set up for tests: a throwaway settings folder, n8n-core's BinaryDataService and a quiet
 * ErrorReporter in n8n-core's DI container. Imported for its effect, before the engine runs.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// n8n-core reads its settings from a user folder: keep it out of the real home directory.
if (!process.env.N8N_USER_FOLDER) {
	process.env.N8N_USER_FOLDER = mkdtempSync(path.join(os.tmpdir(), 'n8n-harness-'));
}
process.env.N8N_ENCRYPTION_KEY ??= 'n8n-test-harness-encryption-key';

import { BinaryDataService, ErrorReporter } from 'n8n-core';

/** n8n-core has its own copy of @n8n/di: its Container is the one the engine reads services from. */
const { Container } = require(
	require.resolve('@n8n/di', { paths: [path.dirname(require.resolve('n8n-core'))] }),
) as typeof import('@n8n/di');

// Binary data: n8n-core's own service; without a storage manager it keeps data inline (base64),
// which is what n8n's nodes-testing InlineBinaryDataService does too.
const quietLogger = {
	error() {},
	warn() {},
	info() {},
	debug() {},
	scoped() {
		return quietLogger;
	},
};
const binaryDataService = new BinaryDataService(
	{
		mode: 'default',
		availableModes: ['default'],
		localStoragePath: '',
		signingSecret: 'harness',
	} as never,
	{ error() {}, warn() {}, info() {} } as never,
	quietLogger as never,
);
(binaryDataService as unknown as { mode: string }).mode = 'default';
Container.set(BinaryDataService, binaryDataService);

// n8n's ErrorReporter logs every node error to the console (and would report to Sentry when set
// up). Tests assert on errors themselves; set HARNESS_VERBOSE=1 to see the reports.
if (!process.env.HARNESS_VERBOSE) {
	Container.set(ErrorReporter, {
		error() {},
		warn() {},
		info() {},
		async init() {},
	} as unknown as ErrorReporter);
}

/**
 * Switches n8n-core's binary data to its file-system mode, n8n 2.x's default outside queue mode:
 * binary items then carry an `id` and their bytes live in `storage`, as in real n8n.
 */
export async function useFilesystemBinaryMode(storage: string): Promise<BinaryDataService> {
	const config = (
		binaryDataService as unknown as {
			config: { mode: string; localStoragePath: string; availableModes: string[] };
		}
	).config;
	config.mode = 'filesystem';
	config.availableModes = ['filesystem'];
	config.localStoragePath = storage;
	await binaryDataService.init();
	return binaryDataService;
}

/** Back to the harness's own binary mode after useFilesystemBinaryMode: data kept inline again. */
export function useInlineBinaryMode(): void {
	const service = binaryDataService as unknown as {
		mode: string;
		config: { mode: string; availableModes: string[] };
	};
	service.config.mode = 'default';
	service.config.availableModes = ['default'];
	service.mode = 'default';
}
