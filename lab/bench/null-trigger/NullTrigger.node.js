// Bench fixture (lab/bench), never shipped: a community webhook trigger that does nothing. It
// answers like the Identity Verification Trigger (on receipt, {"received": true}) and starts the
// workflow with the parsed body as it is, reading no credential and no parameter. Installed into
// the bench's n8n as a community package, it is the ceiling any community trigger can reach there.
'use strict';

class NullTrigger {
	description = {
		displayName: 'Bench Null Trigger',
		name: 'nullTrigger',
		group: ['trigger'],
		version: 1,
		description: 'Starts the workflow with the body as received (bench fixture)',
		defaults: { name: 'Bench Null Trigger' },
		inputs: [],
		outputs: ['main'],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				responseData: '',
				path: 'webhook',
			},
		],
		properties: [],
	};

	webhookMethods = {
		default: {
			async checkExists() {
				return true;
			},
			async create() {
				return true;
			},
			async delete() {
				return true;
			},
		},
	};

	async webhook() {
		return {
			workflowData: [[{ json: this.getBodyData() }]],
			webhookResponse: { received: true },
		};
	}
}

module.exports = { NullTrigger };
