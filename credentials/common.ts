import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_BASE_URL } from '../nodes/shared/urlGuards';

/** The Base URL field of the credentials that call the service; `more` ends its description. */
export function baseUrlProperty(more: string): INodeProperties {
	return {
		displayName: 'Base URL',
		name: 'baseUrl',
		type: 'string',
		required: true,
		default: DEFAULT_BASE_URL,
		placeholder: DEFAULT_BASE_URL,
		hint: `The provider’s address is ${DEFAULT_BASE_URL}: keep it unless your provider gave you another one (a white-label deployment).`,
		description: `Address of the service, without a path such as /api/v2. ${more}`,
	};
}
