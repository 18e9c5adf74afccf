/** The `/__sandbox/*` HTTP control API: the in-process controls for other processes (demo, e2e, bench). */
import type { SandboxCore } from './core.cjs';
import { bodyObject, HttpError, json } from './http.cjs';
import type { Reply, Req } from './http.cjs';
import { ADMIN_PREFIX } from './server.cjs';
import { SEED } from './seed.cjs';
import { sampleBody } from './bodies.cjs';
import { EVENT_TYPES } from '../../nodes/shared/contract';
import type { EventType } from '../../nodes/shared/contract';
import type { Delivery, FaultRule, KybDecision, PageLinkMode, WebhookConfig } from './types.cjs';

const bad = (detail: string) => new HttpError(400, { detail });

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
	let pending: Promise<Delivery | Delivery[]>;
	try {
		pending = start();
	} catch (error) {
		if (error instanceof HttpError) throw error;
		throw bad((error as Error).message);
	}
	if (wait === false) {
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
	try {
		return json(200, await pending);
	} catch (error) {
		if (error instanceof HttpError) throw error;
		throw bad((error as Error).message);
	}
}

export async function handleAdmin(core: SandboxCore, req: Req): Promise<Reply> {
	const path = req.path.slice(ADMIN_PREFIX.length).replace(/\/+$/, '') || '/';
	const route = `${req.method} ${path}`;
	const body = () => bodyObject(req);

	switch (route) {
		case 'GET /':
			return json(200, { url: core.url, credentials: core.credentials, seed: SEED });
		case 'POST /reset':
			core.reset();
			return json(200, { ok: true });
		case 'GET /requests': {
			const method = req.query.get('method')?.toUpperCase();
			const prefix = req.query.get('path');
			return json(
				200,
				core.requests.filter(
					(r) => (!method || r.method === method) && (!prefix || r.path.startsWith(prefix)),
				),
			);
		}
		case 'GET /requests/count':
			return json(200, {
				count: core.count({
					method: req.query.get('method') ?? undefined,
					path: req.query.get('path') ?? undefined,
				}),
			});
		case 'DELETE /requests':
			core.resetLog();
			return { status: 204 };
		case 'GET /faults':
			return json(
				200,
				core
					.listFaults()
					.map((f) => ({ ...f, times: f.times === Infinity ? 'Infinity' : f.times })),
			);
		case 'POST /faults': {
			const rule = body() as FaultRule;
			guard(() => core.addFault({ ...rule, times: timesOf(rule.times) }));
			return json(201, { ok: true });
		}
		case 'DELETE /faults':
			core.clearFaults();
			return { status: 204 };
		case 'POST /latency':
			core.latencyMs = Math.max(0, Number(body().ms) || 0);
			return json(200, { latencyMs: core.latencyMs });
		case 'POST /bank/accounts': {
			const b = body();
			const ids = guard(() =>
				core.bank.seedAccount({
					transactions: Number(b.transactions),
					verificationId: b.verificationId as string | undefined,
					accountId: b.accountId as string | undefined,
				}),
			);
			return json(201, ids);
		}
		case 'POST /bank/page-links': {
			const b = body();
			guard(() =>
				core.bank.setPageLinks(b.mode as PageLinkMode, b.crossHostUrl as string | undefined),
			);
			return json(200, { mode: core.bank.mode, crossHostUrl: core.bank.crossHostUrl });
		}
		case 'POST /aml/profiles': {
			const b = body();
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
		case 'POST /kyb/forms': {
			const b = body();
			return json(
				201,
				guard(() =>
					core.kyb.seedForm({
						formId: b.formId as string | undefined,
						companyId: b.companyId as string | undefined,
						questionnaireId: b.questionnaireId as string | undefined,
					}),
				),
			);
		}
		case 'GET /webhooks/config':
			return json(200, core.webhooks.describe());
		case 'POST /webhooks/config': {
			const b = body() as unknown as WebhookConfig;
			guard(() => core.webhooks.configure(b));
			return json(200, core.webhooks.describe());
		}
		case 'POST /webhooks/send': {
			const b = body();
			const eventType = b.eventType as EventType;
			if (!EVENT_TYPES.includes(eventType))
				throw bad(`eventType must be one of ${EVENT_TYPES.join(', ')}`);
			return deliveryReply(core, () => core.webhooks.send(eventType, b.body), b.wait);
		}
		case 'GET /webhooks/deliveries':
			return json(200, core.webhooks.log);
		case 'DELETE /webhooks/deliveries':
			core.webhooks.clearLog();
			return { status: 204 };
		case 'POST /kyc/sessions': {
			const b = body();
			if (typeof b.clientId !== 'string' || !b.clientId) throw bad('clientId (string) is required');
			const session = core.kyc.createSession(
				b.clientId,
				typeof b.callbackUrl === 'string' ? { callbackUrl: b.callbackUrl } : {},
			);
			return json(201, { scanRef: session.scanRef, authToken: session.authToken });
		}
		case 'GET /webhooks/samples':
			return json(200, Object.fromEntries(EVENT_TYPES.map((t) => [t, sampleBody(t)])));
	}

	let m: RegExpExecArray | null;
	if ((m = /^GET \/webhooks\/deliveries\/([^/]+)$/.exec(route))) {
		const delivery = core.webhooks.log.find((d) => d.id === m![1]);
		if (!delivery) throw new HttpError(404, { detail: `No delivery ${m[1]}.` });
		return json(200, delivery);
	}
	if ((m = /^POST \/webhooks\/deliveries\/([^/]+)\/resend$/.exec(route))) {
		return deliveryReply(core, () => core.webhooks.resend(m![1]), body().wait);
	}
	if ((m = /^POST \/kyb\/forms\/([^/]+)\/review$/.exec(route))) {
		const decision = (body().decision as KybDecision | undefined) ?? 'APPROVED';
		return deliveryReply(
			core,
			() => core.reviewKyb(decodeURIComponent(m![1]), decision),
			body().wait,
		);
	}
	if ((m = /^GET \/kyc\/sessions\/([^/]+)$/.exec(route))) {
		const session = core.kyc.get(decodeURIComponent(m[1]));
		if (!session) throw new HttpError(404, { detail: `No identification ${m[1]}.` });
		return json(200, session);
	}
	if ((m = /^POST \/kyc\/sessions\/([^/]+)\/([a-z-]+)$/.exec(route))) {
		const scanRef = decodeURIComponent(m[1]);
		const b = body();
		const overall = b.overall as string | undefined;
		switch (m[2]) {
			case 'auto-finish':
				if (typeof b.final !== 'boolean') throw bad('final (boolean) is required');
				return deliveryReply(
					core,
					() => core.kyc.autoFinish(scanRef, { final: b.final as boolean, overall }),
					b.wait,
				);
			case 'manual-finish':
				return deliveryReply(core, () => core.kyc.manualFinish(scanRef, { overall }), b.wait);
			case 'request-information':
				core.kyc.requestInformation(scanRef);
				return json(200, core.kyc.get(scanRef));
			case 'resubmit':
				if (typeof b.needsReview !== 'boolean') throw bad('needsReview (boolean) is required');
				return deliveryReply(
					core,
					() =>
						core.kyc.userResubmits(scanRef, {
							needsReview: b.needsReview as boolean,
							overall,
							reviewNow: b.reviewNow as boolean | undefined,
						}),
					b.wait,
				);
			case 'expire':
				return deliveryReply(core, () => core.kyc.expire(scanRef), b.wait);
			case 'cancel':
				return deliveryReply(core, () => core.kyc.cancel(scanRef), b.wait);
		}
	}
	throw new HttpError(404, { detail: `No admin route ${route}. See test/sandbox/README.md.` });
}
