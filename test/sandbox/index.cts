/**
 * The local sandbox of the identity verification service: `startSandbox()` runs it in-process on a
 * random loopback port. See README.md for the `/__sandbox/*` admin API used from other processes.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { amlMonitoringRequestSchema } from '../../nodes/shared/contract';
import { handleAdmin } from './admin.cjs';
import { SandboxCore } from './core.cjs';
import { sent } from './kyc.cjs';
import { Router } from './router.cjs';
import { serviceRoutes } from './routes/index.cjs';
import { sampleBody } from './bodies.cjs';
import { SANDBOX_DEFAULTS } from './seed.cjs';
import { createSandboxServer } from './server.cjs';
import type { Sandbox, SandboxCredentials } from './types.cjs';

export { SEED, MAX_PER_PAGE } from './seed.cjs';
export type * from './types.cjs';
export { sign, signedDelivery, type WebhookRequest } from './webhooks.cjs';
export { sampleBody } from './bodies.cjs';
export { transactionsRange } from './data.cjs';
export { amlTestNames } from './amlLists.cjs';
export { DELIVERIES_PAGE } from './pages.cjs';
export { INBOX_PAGE } from './routes/inbox.cjs';

export interface StartSandboxOptions extends Partial<SandboxCredentials> {
	/** Default 0: a random free port. */
	port?: number;
	/** Default 127.0.0.1. */
	host?: string;
	/** Webhook header prefix until `webhooks.configure` sets another: default `Service`; `Idenfy` is the real one. */
	headerPrefix?: string;
	/**
	 * KYB session answers (POST /kyb/tokens/) carry `formUrl`, the sandbox's own form page, which
	 * Create Session then outputs instead of the provider's hosted form (the demo's choice). Default
	 * false: the answer is the provider's, without a link.
	 */
	kybFormLinks?: boolean;
	/** Start the mailbox's SMTP server on this port (0: a random free one); default: no SMTP server. */
	smtpPort?: number;
}

/** Listens on the port and host asked for (a random port by default); resolves with the URL. */
async function listen(server: Server, opts: StartSandboxOptions): Promise<string> {
	const host = opts.host ?? '127.0.0.1';
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(opts.port ?? 0, host, () => {
			server.off('error', reject);
			resolve();
		});
	});
	const { port } = server.address() as AddressInfo;
	return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** The in-process controls tests use (README.md), over the core and the listening server. */
function sandboxFacade(core: SandboxCore, server: Server): Sandbox {
	let closed: Promise<void> | undefined;
	return {
		url: core.url,
		credentials: core.credentials,
		faults: {
			add: (rule) => core.addFault(rule),
			clear: () => core.clearFaults(),
			setLatency: (ms) => {
				core.latencyMs = Math.max(0, Number(ms) || 0);
			},
			list: () => core.listFaults(),
		},
		requests: core.requests,
		mailbox: { port: () => core.smtpPort, messages: core.mailbox.messages },
		setFileSize: (id, sizeBytes) => {
			if (!(Number.isSafeInteger(sizeBytes) && sizeBytes >= 0))
				throw new Error('sizeBytes must be a whole number >= 0');
			core.fileSizes.set(id, sizeBytes);
		},
		count: (filter) => core.count(filter),
		resetLog: () => core.resetLog(),
		bank: {
			seedAccount: (o) => core.bank.seedAccount(o),
			setPageLinks: (mode, crossHostUrl) => core.bank.setPageLinks(mode, crossHostUrl),
		},
		aml: {
			seedProfile: (o) => core.aml.seedProfile(o),
			seedMonitoring: (request, o) => {
				const store = core.aml.monitorings;
				const record = store.create(amlMonitoringRequestSchema.parse(request), o);
				return { monitoringId: record.id, checkId: record.check.id, status: record.status };
			},
			monitoring: (id) => {
				const record = core.aml.monitorings.get(id);
				return record && core.aml.monitorings.answer(record);
			},
			screenMonitoring: (id) => core.screenAmlMonitoring(id),
			sendExpiration: () => core.sendAmlExpiration(),
		},
		kyb: {
			seedForm: (o) => core.kyb.seedForm(o),
			isSubmitted: (formId) => {
				const status = core.kyb.form(formId)?.status;
				return status !== undefined && status !== 'DRAFT';
			},
			review: (formId, decision) => core.reviewKyb(formId, decision),
			requestInformation: (companyId) => core.requestKybInformation({ companyId }),
			submitSession: (tokenString, input) => core.submitKybSession(tokenString, input),
			createSession: (clientId) =>
				core.kybCompanies.createSession({ tokenType: 'FORM', clientId }).tokenString,
			addCompany: (o) => core.kybCompanies.addCompany(o).id,
			company: (id) => core.kybCompanies.company(id),
			govOrders: () => core.govOrders.list().map((o) => o.id),
			orderGovDocument: (productKey = 'REGISTER_EXTRACT') =>
				core.govOrders.order(productKey, 'UAB Baltic Widgets').id,
			deliverGovOrder: (id) => core.deliverGovOrder(id),
		},
		webhooks: {
			configure: (o) => core.webhooks.configure(o),
			urlOf: (kind) => core.webhooks.urlOf(kind),
			send: (eventType, body) => core.webhooks.send(eventType, body),
			resend: (id) => core.webhooks.resend(id),
			log: core.webhooks.log,
			sampleBody: (eventType) => sampleBody(eventType),
			get headerPrefix() {
				return core.webhooks.headerPrefix;
			},
		},
		kyc: {
			createSession: (clientId, request) => {
				const s = core.kyc.createSession(clientId, request);
				return { scanRef: s.scanRef, authToken: s.authToken };
			},
			autoFinish: async (scanRef, o) => sent(await core.kyc.autoFinish(scanRef, o)),
			seedFinished: (clientId, o) => ({ scanRef: core.kyc.seedFinished(clientId, o).scanRef }),
			manualFinish: async (scanRef, o) => sent(await core.kyc.manualFinish(scanRef, o)),
			requestInformation: (scanRef) => {
				core.kyc.requestInformation(scanRef);
			},
			userResubmits: async (scanRef, o) => (await core.kyc.userResubmits(scanRef, o)).map(sent),
			failAttempt: (scanRef) => {
				core.kyc.failAttempt(scanRef);
			},
			expire: async (scanRef) => sent(await core.kyc.expire(scanRef)),
			cancel: async (scanRef) => sent(await core.kyc.cancel(scanRef)),
			get: (scanRef) => core.kyc.get(scanRef),
			setReportEncoding: (encoding) => {
				core.kyc.reportEncoding = encoding;
			},
		},
		reset: () => core.reset(),
		close: () =>
			(closed ??= (async () => {
				await core.shutdown();
				await new Promise<void>((resolve) => {
					server.close(() => resolve());
					server.closeAllConnections();
				});
			})()),
	};
}

export async function startSandbox(opts: StartSandboxOptions = {}): Promise<Sandbox> {
	const credentials: SandboxCredentials = {
		apiKey: opts.apiKey ?? SANDBOX_DEFAULTS.apiKey,
		apiSecret: opts.apiSecret ?? SANDBOX_DEFAULTS.apiSecret,
		kybFormToken: opts.kybFormToken ?? SANDBOX_DEFAULTS.kybFormToken,
		signingKey: opts.signingKey ?? SANDBOX_DEFAULTS.signingKey,
	};
	const core = new SandboxCore(credentials, opts.headerPrefix);
	core.kybFormLinks = opts.kybFormLinks === true;
	const router = new Router(serviceRoutes);
	const server = createSandboxServer(core, router, (req) => handleAdmin(core, req));
	core.url = await listen(server, opts);
	if (opts.smtpPort !== undefined)
		core.smtpPort = await core.mailbox.listen(opts.smtpPort, opts.host ?? '127.0.0.1');
	return sandboxFacade(core, server);
}
