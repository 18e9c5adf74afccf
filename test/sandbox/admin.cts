/** The `/__sandbox/*` HTTP control API: the in-process controls for other processes (demo, e2e, bench). */
import type { SandboxCore } from './core.cjs';
import { bodyObject, HttpError, json } from './http.cjs';
import type { Reply, Req } from './http.cjs';
import { sent } from './kyc.cjs';
import { deliveriesPage, resendPage, screenPage, sendSamplePage } from './routes/homePage.cjs';
import { inboxPage } from './routes/inbox.cjs';
import { redirectUrlOf } from './routes/kyc.cjs';
import type { CompanyInput } from './routes/kybCompanies.cjs';
import { ADMIN_PREFIX } from './server.cjs';
import { SEED } from './seed.cjs';
import { SANDBOX_EVENT_TYPES, sampleBody } from './bodies.cjs';
import { amlMonitoringRequestSchema } from '../../nodes/shared/contract';
import type { BankTransaction, EventType } from '../../nodes/shared/contract';
import type { Delivery, FaultRule, KybDecision, PageLinkMode, WebhookConfig } from './types.cjs';

/** Answers one admin route; `params` are the path segments the route's pattern captured. */
type AdminHandler = (core: SandboxCore, req: Req, params: string[]) => Reply | Promise<Reply>;

/** One KYC step of `POST /kyc/sessions/{scanRef}/{step}`, given the decoded scanRef and the body. */
type KycStep = (
	core: SandboxCore,
	scanRef: string,
	b: Record<string, unknown>,
) => Reply | Promise<Reply>;

const bad = (detail: string) => new HttpError(400, { detail });

/** `METHOD /path` below the admin prefix, without trailing slashes. */
function routeOf(req: Req): string {
	const path = req.path.slice(ADMIN_PREFIX.length).replace(/\/+$/, '') || '/';
	return `${req.method} ${path}`;
}

const noRoute = (req: Req) =>
	new HttpError(404, { detail: `No admin route ${routeOf(req)}. See test/sandbox/README.md.` });

function timesOf(value: unknown): number | undefined {
	if (value === undefined || value === null) return undefined;
	if (value === 'Infinity' || value === -1 || value === 'always') return Infinity;
	return Number(value);
}

function guard<T>(fn: () => T): T {
	try {
		return fn();
	} catch (error) {
		if (error instanceof HttpError) throw error;
		throw bad((error as Error).message);
	}
}

/** 202 at once with the deliveries started so far, unless the step was refused straight away. */
async function acceptedReply(
	core: SandboxCore,
	pending: Promise<Delivery | Delivery[]>,
	before: number,
): Promise<Reply> {
	// A refused step (404/409) rejects at once: answer with it instead of 202.
	const early = await Promise.race([
		pending.then(
			() => undefined,
			(error: unknown) => ({ error }),
		),
		new Promise<undefined>((resolve) => setImmediate(() => resolve(undefined))),
	]);
	if (early) {
		if (early.error instanceof HttpError) throw early.error;
		throw bad((early.error as Error)?.message ?? String(early.error));
	}
	return json(202, {
		accepted: true,
		deliveryIds: core.webhooks.log.slice(before).map((d) => d.id),
		detail: 'Sending in the background; poll GET /__sandbox/webhooks/deliveries/{id}.',
	});
}

/**
 * Answers with the delivery (or deliveries) once delivered or given up; with `"wait": false` in the
 * body, answers 202 at once with what is known so far (poll GET /webhooks/deliveries/{id}).
 */
async function deliveryReply(
	core: SandboxCore,
	start: () => Promise<Delivery | Delivery[]>,
	wait: unknown,
): Promise<Reply> {
	const before = core.webhooks.log.length;
	const pending = guard(start);
	if (wait === false) return await acceptedReply(core, pending, before);
	try {
		return json(200, await pending);
	} catch (error) {
		if (error instanceof HttpError) throw error;
		throw bad((error as Error).message);
	}
}

// ------------------------------------------------------------------------------------------------
// State, request log, faults
// ------------------------------------------------------------------------------------------------

function listRequests(core: SandboxCore, req: Req): Reply {
	const method = req.query.get('method')?.toUpperCase();
	const prefix = req.query.get('path');
	return json(
		200,
		core.requests.filter(
			(r) => (!method || r.method === method) && (!prefix || r.path.startsWith(prefix)),
		),
	);
}

function countRequests(core: SandboxCore, req: Req): Reply {
	return json(200, {
		count: core.count({
			method: req.query.get('method') ?? undefined,
			path: req.query.get('path') ?? undefined,
		}),
	});
}

function listFaults(core: SandboxCore): Reply {
	return json(
		200,
		core.listFaults().map((f) => ({ ...f, times: f.times === Infinity ? 'Infinity' : f.times })),
	);
}

function addFault(core: SandboxCore, req: Req): Reply {
	const rule = bodyObject(req) as FaultRule;
	guard(() => core.addFault({ ...rule, times: timesOf(rule.times) }));
	return json(201, { ok: true });
}

function setLatency(core: SandboxCore, req: Req): Reply {
	core.latencyMs = Math.max(0, Number(bodyObject(req).ms) || 0);
	return json(200, { latencyMs: core.latencyMs });
}

// ------------------------------------------------------------------------------------------------
// Seeded data
// ------------------------------------------------------------------------------------------------

function seedBankAccount(core: SandboxCore, req: Req): Reply {
	const b = bodyObject(req);
	const ids = guard(() =>
		core.bank.seedAccount({
			transactions: Array.isArray(b.transactions)
				? (b.transactions as BankTransaction[])
				: Number(b.transactions),
			verificationId: b.verificationId as string | undefined,
			accountId: b.accountId as string | undefined,
		}),
	);
	return json(201, ids);
}

function setPageLinks(core: SandboxCore, req: Req): Reply {
	const b = bodyObject(req);
	guard(() => core.bank.setPageLinks(b.mode as PageLinkMode, b.crossHostUrl as string | undefined));
	return json(200, { mode: core.bank.mode, crossHostUrl: core.bank.crossHostUrl });
}

function seedAmlProfile(core: SandboxCore, req: Req): Reply {
	const b = bodyObject(req);
	const ids = guard(() =>
		core.aml.seedProfile({
			sizeBytes: b.sizeBytes === undefined ? undefined : Number(b.sizeBytes),
			checkId: b.checkId as string | undefined,
			profileId: b.profileId as string | undefined,
			password: b.password as string | undefined,
		}),
	);
	return json(201, ids);
}

/** A monitoring as POST /aml/monitorings/ makes it; `expiration` optional. */
function seedAmlMonitoring(core: SandboxCore, req: Req): Reply {
	const { expiration, ...request } = bodyObject(req);
	const record = guard(() =>
		core.aml.monitorings.create(amlMonitoringRequestSchema.parse(request), {
			expiration: expiration as string | undefined,
		}),
	);
	return json(201, core.aml.monitorings.answer(record));
}

function seedKybForm(core: SandboxCore, req: Req): Reply {
	const b = bodyObject(req);
	return json(
		201,
		guard(() =>
			core.kyb.seedForm({
				formId: b.formId as string | undefined,
				companyId: b.companyId as string | undefined,
				questionnaireId: b.questionnaireId as string | undefined,
				clientId: b.clientId as string | undefined,
			}),
		),
	);
}

function reviewKybForm(core: SandboxCore, req: Req, [formId]: string[]): Promise<Reply> {
	const decision = (bodyObject(req).decision as KybDecision | undefined) ?? 'APPROVED';
	return deliveryReply(
		core,
		() => core.reviewKyb(decodeURIComponent(formId), decision),
		bodyObject(req).wait,
	);
}

/**
 * The company opens a KYB session's link, fills its form (the body's company and beneficiaries,
 * else the sandbox's) and submits it: `{companyId, delivery}` (the COMPANY_SUBMIT delivery, when
 * a webhook URL is configured).
 */
async function submitKybSession(core: SandboxCore, req: Req, [token]: string[]): Promise<Reply> {
	const input = bodyObject(req) as CompanyInput;
	try {
		return json(200, await core.submitKybSession(decodeURIComponent(token), input));
	} catch (error) {
		if (error instanceof HttpError) throw error;
		throw bad((error as Error).message);
	}
}

// ------------------------------------------------------------------------------------------------
// Webhooks
// ------------------------------------------------------------------------------------------------

function configureWebhooks(core: SandboxCore, req: Req): Reply {
	const b = bodyObject(req) as unknown as WebhookConfig;
	guard(() => core.webhooks.configure(b));
	return json(200, core.webhooks.describe());
}

function sendWebhook(core: SandboxCore, req: Req): Promise<Reply> {
	const b = bodyObject(req);
	const eventType = b.eventType as EventType;
	if (!SANDBOX_EVENT_TYPES.includes(eventType))
		throw bad(`eventType must be one of ${SANDBOX_EVENT_TYPES.join(', ')}`);
	return deliveryReply(core, () => core.webhooks.send(eventType, b.body), b.wait);
}

function getDelivery(core: SandboxCore, _req: Req, [id]: string[]): Reply {
	const delivery = core.webhooks.log.find((d) => d.id === id);
	if (!delivery) throw new HttpError(404, { detail: `No delivery ${id}.` });
	return json(200, delivery);
}

function resendDelivery(core: SandboxCore, req: Req, [id]: string[]): Promise<Reply> {
	return deliveryReply(core, () => core.webhooks.resend(id), bodyObject(req).wait);
}

// ------------------------------------------------------------------------------------------------
// KYC sessions
// ------------------------------------------------------------------------------------------------

function createKycSession(core: SandboxCore, req: Req): Reply {
	const b = bodyObject(req);
	if (typeof b.clientId !== 'string' || !b.clientId) throw bad('clientId (string) is required');
	const session = core.kyc.createSession(
		b.clientId,
		typeof b.callbackUrl === 'string' ? { callbackUrl: b.callbackUrl } : {},
	);
	return json(201, {
		scanRef: session.scanRef,
		authToken: session.authToken,
		redirectUrl: redirectUrlOf(req, session.authToken),
	});
}

function getKycSession(core: SandboxCore, _req: Req, [scanRef]: string[]): Reply {
	const session = core.kyc.get(decodeURIComponent(scanRef));
	if (!session) throw new HttpError(404, { detail: `No identification ${scanRef}.` });
	return json(200, session);
}

const KYC_STEPS: Record<string, KycStep> = {
	'auto-finish': (core, scanRef, b) => {
		if (typeof b.final !== 'boolean') throw bad('final (boolean) is required');
		const options = { final: b.final, overall: b.overall as string | undefined };
		return deliveryReply(
			core,
			async () => sent(await core.kyc.autoFinish(scanRef, options)),
			b.wait,
		);
	},
	'manual-finish': (core, scanRef, b) => {
		const overall = b.overall as string | undefined;
		return deliveryReply(
			core,
			async () => sent(await core.kyc.manualFinish(scanRef, { overall })),
			b.wait,
		);
	},
	'request-information': (core, scanRef) => {
		core.kyc.requestInformation(scanRef);
		return json(200, core.kyc.get(scanRef));
	},
	'fail-attempt': (core, scanRef) => json(200, core.kyc.failAttempt(scanRef)),
	resubmit: (core, scanRef, b) => {
		if (typeof b.needsReview !== 'boolean') throw bad('needsReview (boolean) is required');
		const options = {
			needsReview: b.needsReview,
			overall: b.overall as string | undefined,
			reviewNow: b.reviewNow as boolean | undefined,
		};
		return deliveryReply(
			core,
			async () => (await core.kyc.userResubmits(scanRef, options)).map(sent),
			b.wait,
		);
	},
	expire: (core, scanRef, b) =>
		deliveryReply(core, async () => sent(await core.kyc.expire(scanRef)), b.wait),
	cancel: (core, scanRef, b) =>
		deliveryReply(core, async () => sent(await core.kyc.cancel(scanRef)), b.wait),
};

function kycStep(core: SandboxCore, req: Req, [scanRef, step]: string[]): Reply | Promise<Reply> {
	const decoded = decodeURIComponent(scanRef);
	const b = bodyObject(req);
	if (!Object.hasOwn(KYC_STEPS, step)) throw noRoute(req);
	return KYC_STEPS[step](core, decoded, b);
}

// ------------------------------------------------------------------------------------------------
// The route table
// ------------------------------------------------------------------------------------------------

/** Routes without path parameters, by `METHOD /path`. */
const ROUTES = new Map<string, AdminHandler>([
	[
		'GET /',
		(core) =>
			json(200, {
				url: core.url,
				credentials: core.credentials,
				seed: SEED,
				headerPrefix: core.webhooks.headerPrefix,
			}),
	],
	[
		'POST /reset',
		(core) => {
			core.reset();
			return json(200, { ok: true });
		},
	],
	['GET /requests', listRequests],
	['GET /requests/count', countRequests],
	[
		'DELETE /requests',
		(core) => {
			core.resetLog();
			return { status: 204 };
		},
	],
	['GET /faults', listFaults],
	['POST /faults', addFault],
	[
		'DELETE /faults',
		(core) => {
			core.clearFaults();
			return { status: 204 };
		},
	],
	['POST /latency', setLatency],
	['POST /bank/accounts', seedBankAccount],
	['POST /bank/page-links', setPageLinks],
	['POST /aml/profiles', seedAmlProfile],
	['POST /aml/monitorings', seedAmlMonitoring],
	[
		'POST /aml/monitorings/expiration',
		(core, req) => deliveryReply(core, () => core.sendAmlExpiration(), bodyObject(req).wait),
	],
	['POST /kyb/forms', seedKybForm],
	['GET /deliveries', (core) => deliveriesPage(core)],
	['POST /deliveries/send', (core, req) => sendSamplePage(core, req.rawBody)],
	['POST /deliveries/screen', (core, req) => screenPage(core, req.rawBody)],
	['GET /inbox', (core) => inboxPage(core)],
	['GET /webhooks/config', (core) => json(200, core.webhooks.describe())],
	['POST /webhooks/config', configureWebhooks],
	['POST /webhooks/send', sendWebhook],
	['GET /webhooks/deliveries', (core) => json(200, core.webhooks.log)],
	[
		'DELETE /webhooks/deliveries',
		(core) => {
			core.webhooks.clearLog();
			return { status: 204 };
		},
	],
	['POST /kyc/sessions', createKycSession],
	[
		'GET /webhooks/samples',
		() => json(200, Object.fromEntries(SANDBOX_EVENT_TYPES.map((t) => [t, sampleBody(t)]))),
	],
]);

/** Routes with path parameters, matched against `METHOD /path` in order. */
const PARAM_ROUTES: Array<[RegExp, AdminHandler]> = [
	[/^GET \/webhooks\/deliveries\/([^/]+)$/, getDelivery],
	[
		/^POST \/deliveries\/([^/]+)\/resend$/,
		(core, _req, [id]) => resendPage(core, decodeURIComponent(id)),
	],
	[/^POST \/webhooks\/deliveries\/([^/]+)\/resend$/, resendDelivery],
	[/^POST \/kyb\/forms\/([^/]+)\/review$/, reviewKybForm],
	[/^POST \/kyb\/sessions\/([^/]+)\/submit$/, submitKybSession],
	[
		/^POST \/aml\/monitorings\/([^/]+)\/screen$/,
		(core, req, [id]) =>
			deliveryReply(core, () => core.screenAmlMonitoring(id), bodyObject(req).wait),
	],
	[/^GET \/kyc\/sessions\/([^/]+)$/, getKycSession],
	[/^POST \/kyc\/sessions\/([^/]+)\/([a-z-]+)$/, kycStep],
];

export async function handleAdmin(core: SandboxCore, req: Req): Promise<Reply> {
	const route = routeOf(req);
	const handler = ROUTES.get(route);
	if (handler) return await handler(core, req, []);
	for (const [pattern, paramHandler] of PARAM_ROUTES) {
		const m = pattern.exec(route);
		if (m) return await paramHandler(core, req, m.slice(1));
	}
	throw noRoute(req);
}
