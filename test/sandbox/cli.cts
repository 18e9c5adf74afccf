/**
 * `node scripts/toolchain.mjs sandbox [--port N] [--webhook-url URL] [--host H]
 * [--header-prefix Idenfy]`: runs the sandbox standalone (default http://127.0.0.1:8787) and prints
 * what a workflow needs to talk to it.
 */
import { amlTestNames, DELIVERIES_PAGE, SEED, startSandbox } from './index.cjs';

interface CliArgs {
	port: number;
	host: string;
	webhookUrl?: string;
	headerPrefix?: string;
}

const USAGE =
	'usage: node scripts/toolchain.mjs sandbox [--port 8787] [--host 127.0.0.1] [--webhook-url http://127.0.0.1:5678/webhook/...] [--header-prefix Service|Idenfy]\n';

function parseArgs(argv: string[]): CliArgs {
	const out: CliArgs = { port: 8787, host: '127.0.0.1' };
	for (let i = 0; i < argv.length; i++) {
		const [flag, inline] = argv[i].split('=', 2);
		const value = () => inline ?? argv[++i];
		switch (flag) {
			case '--port':
				out.port = Number(value());
				if (!Number.isInteger(out.port) || out.port < 0 || out.port > 65535)
					throw new Error('--port must be 0..65535');
				break;
			case '--host':
				out.host = value();
				break;
			case '--webhook-url':
				out.webhookUrl = value();
				break;
			case '--header-prefix':
				out.headerPrefix = value();
				break;
			case '--help':
			case '-h':
				process.stdout.write(USAGE);
				process.exit(0);
				break;
			default:
				throw new Error(`unknown option ${argv[i]} (try --help)`);
		}
	}
	return out;
}

async function main(): Promise<void> {
	const args = parseArgs(process.argv.slice(2));
	const sandbox = await startSandbox({
		port: args.port,
		host: args.host,
		headerPrefix: args.headerPrefix,
		kybFormLinks: true,
	});
	if (args.webhookUrl) sandbox.webhooks.configure({ url: args.webhookUrl });
	const c = sandbox.credentials;
	const prefix = sandbox.webhooks.headerPrefix;
	const lines = [
		`Identity verification sandbox listening on ${sandbox.url}`,
		'',
		'Credentials (n8n "Identity Verification API"):',
		`  Base URL:    ${sandbox.url}`,
		`  API Key:     ${c.apiKey}`,
		`  API Secret:  ${c.apiSecret}`,
		`KYB form token (Bearer): ${c.kybFormToken}`,
		`Webhook signing key:     ${c.signingKey}`,
		`Webhook headers:         ${prefix}-Event-Type, ${prefix}-Signature (the signing credential's Header Prefix: ${prefix})`,
		`Webhooks are sent to:    ${args.webhookUrl ?? "(no address: a token's Callback URL gets its results; or start with --webhook-url)"}`,
		`Verification page:       the redirectUrl of a created token (${sandbox.url}/api/v2/redirect?authToken=...)`,
		`KYB form:                the formUrl of a created KYB session (${sandbox.url}/kyb-ui/welcome?authToken=...)`,
		`Home page:               ${sandbox.url}/   Deliveries (with Resend): ${sandbox.url}${DELIVERIES_PAGE}`,
		'',
		'Seeded data:',
		`  Bank verification ${SEED.bank.verificationId}, account ${SEED.bank.accountId} (${SEED.bank.transactions} transactions)`,
		`  AML check ${SEED.aml.checkId}, profile ${SEED.aml.profileId}, PDF password "${SEED.aml.password}"`,
		`  KYB company ${SEED.kyb.companyId}, questionnaire ${SEED.kyb.questionnaireId}, form ${SEED.kyb.formId}`,
		`  POA identity "${SEED.poa.name}", "${SEED.poa.address}"`,
		'',
		'AML test names:',
		...amlTestNames().map(({ name, produces }) => `  ${name}: ${produces}`),
		'',
		`Admin API: ${sandbox.url}/__sandbox/ (see test/sandbox/README.md). Ctrl-C stops.`,
	];
	process.stdout.write(`${lines.join('\n')}\n`);

	let stopping = false;
	const stop = (signal: string) => {
		if (stopping) return;
		stopping = true;
		process.stdout.write(`\n${signal}: stopping the sandbox...\n`);
		sandbox.close().then(
			() => process.exit(0),
			() => process.exit(1),
		);
	};
	process.on('SIGINT', () => stop('SIGINT'));
	process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: Error) => {
	process.stderr.write(`sandbox: ${error.message}\n`);
	process.exit(1);
});
