/** What the foundation tests share: one sandbox per test file and the credentials that reach it. */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { sandboxCredentials } from '../harness/index.cjs';
import { startSandbox } from '../sandbox/index.cjs';
import type { Sandbox, StartSandboxOptions } from '../sandbox/index.cjs';

/**
 * A sandbox for the test file and every credential pointing at it (`bind` gets both): started once,
 * closed at the end, and its faults and request log cleared before each test.
 */
export function useSandboxCredentials(
	bind: (sb: Sandbox, creds: Record<string, ICredentialDataDecryptedObject>) => void,
	options: StartSandboxOptions = {},
): void {
	let sb: Sandbox;
	beforeAll(async () => {
		sb = await startSandbox(options);
		bind(sb, sandboxCredentials(sb));
	});
	afterAll(async () => {
		await sb?.close();
	});
	beforeEach(() => {
		sb.faults.clear();
		sb.resetLog();
	});
}
