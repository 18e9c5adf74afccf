/** The trigger node in the host's one-node workflow, and the node types that workflow knows. */
import type {
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypes,
	IRun,
} from 'n8n-workflow';

import { PACKAGE_NAME } from '../index.cjs';

const TRIGGER_TYPE = `${PACKAGE_NAME}.identityVerificationTrigger`;
export const SIGNING_CREDENTIAL = 'identityVerificationWebhookSigningApi';
const TRIGGER_NAME = 'Identity Verification Trigger';

export class TriggerNodeTypes implements INodeTypes {
	constructor(private readonly trigger: INodeType) {}

	getByName(nodeType: string): INodeType {
		return this.getByNameAndVersion(nodeType);
	}

	getByNameAndVersion(nodeType: string): INodeType {
		if (nodeType !== TRIGGER_TYPE)
			throw new Error(`Unknown node type in the webhook harness: ${nodeType}`);
		return this.trigger;
	}

	getKnownTypes() {
		return {};
	}
}

/** The trigger as saved in the workflow; it names the signing credential only when one is given. */
export function triggerNode(
	parameters: INodeParameters | undefined,
	withCredential: boolean,
	typeVersion = 1,
): INode {
	return {
		id: 'a1b2c3d4-0000-4000-8000-000000000001',
		name: TRIGGER_NAME,
		type: TRIGGER_TYPE,
		typeVersion,
		position: [0, 0],
		parameters: parameters ?? {},
		credentials: withCredential
			? { [SIGNING_CREDENTIAL]: { id: 'cred-1', name: 'Signing key' } }
			: undefined,
		webhookId: 'b1b2c3d4-0000-4000-8000-000000000002',
	};
}

/** The trigger's output items of an executed run (its first output). */
export function triggerOutput(run: IRun): INodeExecutionData[] {
	const runData = run.data.resultData.runData[TRIGGER_NAME];
	return runData?.[0]?.data?.main?.[0] ?? [];
}
