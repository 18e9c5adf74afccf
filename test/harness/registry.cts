/**
 * Node and credential types: our classes loaded from `.build/`, the start node, and fixture nodes
 * tests register. `nodeTypes` is n8n's INodeTypes over them (like nodes-testing's NodeTypes).
 */
import path from 'node:path';

import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	INodeCredentials,
	INodeProperties,
	INodeType,
	INodeTypes,
	IVersionedNodeType,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { HarnessNoOp, HarnessStart, START_NODE_TYPE } from './start-node.cjs';

export const PACKAGE_NAME = 'n8n-nodes-identity-verification';

/** `.build/` (this file is compiled to `.build/test/harness/registry.cjs`). */
const BUILD_DIR = path.resolve(__dirname, '..', '..');

export type AnyNodeType = INodeType | IVersionedNodeType;

const nodeRegistry = new Map<string, AnyNodeType>();

/** An instance of a compiled class, or undefined when its file is not compiled into `.build/`. */
function loadClass<T>(file: string, exportName: string): T | undefined {
	const full = path.join(BUILD_DIR, file);
	let mod: Record<string, unknown>;
	try {
		mod = require(full) as Record<string, unknown>;
	} catch (error) {
		if (
			(error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND' &&
			String((error as Error).message).includes(full)
		) {
			return undefined;
		}
		throw error;
	}
	const Ctor = mod[exportName] as (new () => T) | undefined;
	return Ctor ? new Ctor() : undefined;
}

/** Registers a node type under its short name and under `n8n-nodes-identity-verification.<name>`. */
export function registerNodeType(name: string, type: AnyNodeType): void {
	const short = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1) : name;
	nodeRegistry.set(short, type);
	nodeRegistry.set(`${PACKAGE_NAME}.${short}`, type);
	// A full name of another package (the bench runs n8n-nodes-base.httpRequest) is kept as given.
	if (name.includes('.')) nodeRegistry.set(name, type);
}

let packageNodesLoaded = false;
export function ensurePackageNodes(): void {
	if (packageNodesLoaded) return;
	packageNodesLoaded = true;
	nodeRegistry.set(START_NODE_TYPE, new HarnessStart());
	nodeRegistry.set('n8n-nodes-base.noOp', new HarnessNoOp());
	const action = loadClass<INodeType>(
		'nodes/IdentityVerification/IdentityVerification.node.js',
		'IdentityVerification',
	);
	if (action) registerNodeType('identityVerification', action);
	const trigger = loadClass<INodeType>(
		'nodes/IdentityVerificationTrigger/IdentityVerificationTrigger.node.js',
		'IdentityVerificationTrigger',
	);
	if (trigger) registerNodeType('identityVerificationTrigger', trigger);
	const polling = loadClass<INodeType>(
		'nodes/IdentityVerificationPollingTrigger/IdentityVerificationPollingTrigger.node.js',
		'IdentityVerificationPollingTrigger',
	);
	if (polling) registerNodeType('identityVerificationPollingTrigger', polling);
}

/** Every registered node type once (each is registered under several names). */
export function registeredNodeTypes(): AnyNodeType[] {
	ensurePackageNodes();
	return [...new Set(nodeRegistry.values())];
}

export function fullTypeName(name: string): string {
	if (nodeRegistry.has(name) && name.includes('.')) return name;
	return `${PACKAGE_NAME}.${name}`;
}

/** n8n's INodeTypes over the registry (like nodes-testing's NodeTypes). */
export const nodeTypes: INodeTypes = {
	getByName(nodeType: string) {
		ensurePackageNodes();
		const type = nodeRegistry.get(nodeType);
		if (!type) throw new Error(`Unknown node type "${nodeType}" (is it compiled into .build/?)`);
		return type;
	},
	getByNameAndVersion(nodeType: string, version?: number) {
		return NodeHelpers.getVersionedNodeType(this.getByName(nodeType), version);
	},
	getKnownTypes() {
		ensurePackageNodes();
		return Object.fromEntries(
			[...nodeRegistry.keys()].map((key) => [key, { className: key, sourcePath: '' }]),
		);
	},
};

const CREDENTIAL_FILES: Array<[file: string, exportName: string]> = [
	['credentials/IdentityVerificationApi.credentials.js', 'IdentityVerificationApi'],
	[
		'credentials/IdentityVerificationKybFormTokenApi.credentials.js',
		'IdentityVerificationKybFormTokenApi',
	],
	[
		'credentials/IdentityVerificationWebhookSigningApi.credentials.js',
		'IdentityVerificationWebhookSigningApi',
	],
];

let credentialTypeMap: Map<string, ICredentialType> | undefined;

/** Our credential classes by name (`identityVerificationApi`, ...). */
export function credentialTypes(): Map<string, ICredentialType> {
	if (!credentialTypeMap) {
		credentialTypeMap = new Map();
		for (const [file, exportName] of CREDENTIAL_FILES) {
			const type = loadClass<ICredentialType>(file, exportName);
			if (type) credentialTypeMap.set(type.name, type);
		}
	}
	return credentialTypeMap;
}

export function getCredentialType(name: string): ICredentialType {
	const type = credentialTypes().get(name);
	if (!type) throw new Error(`Unknown credential type "${name}"`);
	return type;
}

/** Fills in the defaults of the credential's properties, as n8n does when it loads a credential. */
export function withCredentialDefaults(
	typeName: string,
	data: ICredentialDataDecryptedObject,
): ICredentialDataDecryptedObject {
	const type = credentialTypes().get(typeName);
	const result: ICredentialDataDecryptedObject = {};
	for (const property of type?.properties ?? ([] as INodeProperties[])) {
		if (property.default !== undefined)
			result[property.name] = property.default as ICredentialDataDecryptedObject[string];
	}
	return { ...result, ...data };
}

/** A node's credentials as n8n saves them: each type named as n8n names a new one ("<type's display name> account"). */
export function nodeCredentials(types: string[]): INodeCredentials {
	const credentials: INodeCredentials = {};
	for (const name of types) {
		credentials[name] = {
			id: `harness-${name}`,
			name: `${credentialTypes().get(name)?.displayName ?? name} account`,
		};
	}
	return credentials;
}
