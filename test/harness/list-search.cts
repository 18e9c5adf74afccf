/**
 * searchList: a resource locator's From List, loaded as n8n's editor loads it. The steps of n8n's
 * `DynamicNodeParametersService.getResourceLocatorResults` (packages/cli): a one-node workflow with
 * the node's current parameters and credentials, n8n-core's `LoadOptionsContext` for the field's
 * path, and the node's `methods.listSearch[method]` called with the search text and the page token.
 */
import './engine.cjs';

import type {
	ICredentialDataDecryptedObject,
	INode,
	INodeListSearchResult,
	INodeParameters,
	INodeType,
} from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';
import { LoadOptionsContext } from 'n8n-core';

import { makeAdditionalData } from './credentials-helper.cjs';
import { ensurePackageNodes, fullTypeName, nodeCredentials, nodeTypes } from './registry.cjs';

export interface SearchListOptions {
	/** The `searchListMethod` of the field's From List mode, e.g. `companySearch`. */
	method: string;
	/** The node's parameters as the editor holds them (the field's company, the Authentication). */
	parameters: INodeParameters;
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	/** What the user typed in the list's search box. */
	filter?: string;
	/** The token of the page before, to load the next one. */
	paginationToken?: string;
	typeVersion?: number;
	node?: string;
}

export async function searchList(opts: SearchListOptions): Promise<INodeListSearchResult> {
	ensurePackageNodes();
	const typeName = fullTypeName(opts.node ?? 'identityVerification');
	const typeVersion = opts.typeVersion ?? 2;
	const type = NodeHelpers.getVersionedNodeType(nodeTypes.getByName(typeName), typeVersion);
	const search = (type as INodeType).methods?.listSearch?.[opts.method];
	if (!search) throw new Error(`The node has no list search "${opts.method}"`);
	const credentials = nodeCredentials(Object.keys(opts.credentials ?? {}));
	const node: INode = {
		id: 'harness-node',
		name: 'Temp-Node',
		type: typeName,
		typeVersion,
		position: [0, 0],
		parameters: opts.parameters,
		credentials,
	};
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes,
	});
	const additionalData = makeAdditionalData(opts.credentials ?? {});
	additionalData.currentNodeParameters = opts.parameters;
	const context = new LoadOptionsContext(workflow, node, additionalData, 'parameters');
	return await search.call(context, opts.filter, opts.paginationToken);
}
