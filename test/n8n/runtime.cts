// The real n8n, for the demo (test/demo), the end-to-end tests (test/e2e), the lab, the queue-mode
// stack and `node scripts/toolchain.mjs n8n`. Not shipped; run through scripts/toolchain.mjs (Node
// 24). One entry for the modules that do the work, each one job:
//
//   version.cts   which n8n (the pin, or IDV_N8N_VERSION's), where it is installed, which Node runs
//                 it, what differs between the 2.x and 1.x lines (versionTraits), on2x
//   install.cts   n8n installed once into a cache outside the repo; this package packed and
//                 installed into a user folder exactly the way n8n installs a community package
//   env.cts       the environment of an isolated loopback n8n (server or CLI)
//   process.cts   starting and stopping n8n on loopback: ports, readiness, its log
//   commands.cts  its CLI: import, publish/unpublish, execute, export:nodes
//   rest.cts      its REST API (RestClient) and its production webhooks (waitForWebhook,
//                 postWhenRegistered, waitForPostWebhook)
//   shell.cts     running npm and tar, failure messages
//
// Moving the n8n pin: change PINNED_N8N_VERSION in version.cts (N8N1_VERSION beside it is the 1.x
// release); its header comment says what to run afterwards.
export { CACHE_DIR, N8N_VERSION, describeN8n, on2x } from './version.cjs';
export {
	PACKAGE_NAME,
	ROOT,
	ensureN8n,
	installPackage,
	makeUserFolder,
	packPackage,
	requireFromN8n,
} from './install.cjs';
export { encryptionKey } from './env.cjs';
export { portIsFree, startN8n, type N8nInstance } from './process.cjs';
export {
	execute,
	exportNodes,
	importCredentials,
	importWorkflow,
	n8nCli,
	nodeOutput,
	publishWorkflow,
	unpublishWorkflow,
	type CredentialImport,
	type ExecuteResult,
} from './commands.cjs';
export {
	DEFAULT_OWNER,
	RestClient,
	postWhenRegistered,
	waitForPostWebhook,
	waitForWebhook,
} from './rest.cjs';
