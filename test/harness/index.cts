/**
 * Test harness on n8n's real engine, modelled on n8n's own NodeTestHarness
 * (packages/core/nodes-testing): real `WorkflowExecute` + `ExecutionLifecycleHooks` from n8n-core,
 * our real node and credential classes loaded from `.build/`, a CredentialsHelper that calls each
 * credential's `authenticate` function as n8n's CLI does, n8n-core's BinaryDataService (inline/memory
 * mode) and a credential tester that runs the declarative `test` like n8n's CredentialsTester.
 *
 *   const { items, error } = await runNode({ node: 'identityVerification', parameters, credentials: sandboxCredentials(sb) });
 *   const result = await testCredential('identityVerificationApi', { apiKey, apiSecret, baseUrl });
 *
 * This file is the entry tests import; each part lives in its own file (see README.md).
 */
// First: n8n-core's settings folder and services must be in place before the engine loads.
import './engine.cjs';

export { HarnessCredentialsHelper, makeAdditionalData } from './credentials-helper.cjs';
export { credentialTypes, getCredentialType, PACKAGE_NAME, registerNodeType } from './registry.cjs';
export { runNode, type RunNodeOptions, type RunNodeResult } from './run-node.cjs';
export { searchList, type SearchListOptions } from './list-search.cjs';
export { pollTrigger } from './poll.cjs';
export { useFilesystemBinaryMode, useInlineBinaryMode } from './engine.cjs';
export { sandboxCredentials } from './sandbox-credentials.cjs';
export { testCredential } from './test-credential.cjs';
