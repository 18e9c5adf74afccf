/**
 * The service contract in zod (docs/service-interface.md says it in words): one module for the
 * nodes, the sandbox and the tests, one file per product area. Request schemas enforce every rule
 * the contract states; response and webhook schemas accept unknown extra fields (the service may
 * add fields at any time). This index re-exports every area whole (a schema added to an area's
 * file needs no line here) and what the others use of common.ts.
 */
export {
	LIMITS,
	describeIssues,
	issueRule,
	listPageSchema,
	uuidSchema,
	type ContractIssue,
	type ListPage,
} from './common';
export * from './kyc';
export * from './bank';
export * from './poa';
export * from './aml';
export * from './kyb';
export * from './webhooks';
