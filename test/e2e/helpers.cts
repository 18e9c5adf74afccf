// What the e2e test files share: running an action workflow in n8n, failing with n8n's own error
// when it did not succeed, the proof-of-address check on an image made in the workflow, and the
// API-key credential test through n8n's API.
import { SEED } from '../sandbox/index.cjs';
import { execute, type ExecuteResult } from '../n8n/runtime.cjs';
import { CREDENTIALS, type Stack } from '../n8n/stack.cjs';
import { actionWorkflow, fileFromBase64 } from './workflows.cjs';

/** Creates the workflow in n8n (as the editor saves it) and runs it with `n8n execute --id`. */
export async function runAction(
	stack: Stack,
	name: string,
	parameters: Record<string, unknown>,
	opts: Parameters<typeof actionWorkflow>[2] = {},
): Promise<ExecuteResult> {
	const id = await stack.rest.createWorkflow(actionWorkflow(name, parameters, opts));
	return await execute(stack.userFolder, id);
}

export function expectSuccess(result: ExecuteResult): void {
	if (!result.ok) {
		const err = result.run?.data.resultData.error;
		throw new Error(
			`n8n execution failed: ${err?.message ?? ''} ${err?.description ?? ''}\n${result.output.slice(-3000)}`,
		);
	}
}

/** An 8x8 PNG (a real image file, as a customer's scanned document would be). */
export const PNG_BASE64 =
	'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEUlEQVR4nGOQyzuBFTEMLQkADDdVAYyuhw4AAAAASUVORK5CYII=';

/** Proof of Address → Create Check of the PNG for the seeded address and `providedName`. */
export const poaCheck = (providedName: string = SEED.poa.name) => ({
	resource: 'proofOfAddress',
	operation: 'createCheck',
	binaryPropertyName: 'data',
	providedName,
	providedAddress: SEED.poa.address,
});

/** The nodes that make the PNG a binary file in field `data`, to run before the action. */
export const withPng = () => ({
	before: fileFromBase64(PNG_BASE64, 'utility-bill.png', 'image/png'),
});

/** The API-key credential's test through n8n's API: the sandbox's key pair and URL, but for `data`. */
export const testApiCredential = (stack: Stack, data: Record<string, string> = {}) =>
	stack.rest.testCredential({
		...CREDENTIALS.api,
		data: {
			apiKey: stack.sandbox.credentials.apiKey,
			apiSecret: stack.sandbox.credentials.apiSecret,
			baseUrl: stack.sandbox.url,
			...data,
		},
	});
