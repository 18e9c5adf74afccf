/**
 * `/api/v2/redirect?authToken=…`: the hosted verification page a token's `redirectUrl` (or a
 * re-upload's `sessionUrl`) opens in the person's browser, without credentials. The service's page
 * takes a document photo and a selfie; the sandbox's lets someone trying the demo choose how the
 * verification ends (approved, denied, suspected then a reviewer's decision, expired, cancelled, a
 * re-upload asked for), which sends the matching signed webhook to the token's Callback URL and the
 * configured address; the page then says where each went and what the receiver answered.
 */
import type { SandboxCore } from '../core.cjs';
import {
	choice,
	deliveriesHtml,
	escapeHtml,
	firstAnswers,
	formOf,
	nothingSent,
	page,
} from '../pages.cjs';
import type { Reply } from '../http.cjs';
import type { Route } from '../router.cjs';
import type { Delivery, KycSession } from '../types.cjs';
import { redirectUrlOf } from './kyc.cjs';

/** What the person (or, in a manual review, the reviewer) can choose. */
const RESULTS = ['APPROVED', 'DENIED', 'SUSPECTED', 'EXPIRED', 'CANCELLED', 'REUPLOAD'] as const;
type Result = (typeof RESULTS)[number];

function sessionLine(session: KycSession): string {
	return `<p>Client <b>${escapeHtml(session.clientId)}</b>, scan reference <code>${escapeHtml(session.scanRef)}</code>.</p>`;
}

const unknownLink = () =>
	page(
		404,
		'Verification link not found',
		'<p>This link is unknown or was replaced by a newer one (requesting information gives a new link).</p>',
	);

/** Where a result will go, said before the choice is made. */
function targetsLine(core: SandboxCore, session: KycSession): string {
	const targets = core.kyc.targetsOf(session);
	if (targets.length === 0) return nothingSent('will be');
	const where = targets.map((url) => `<code>${escapeHtml(url)}</code>`).join(' and ');
	return `<p>The signed result webhook goes to ${where}.</p>`;
}

function expiryLine(session: KycSession): string {
	const at = new Date(session.expiresAt)
		.toISOString()
		.replace('T', ' ')
		.replace(/\.\d+Z$/, ' UTC');
	return `<p>This link expires at ${at} (the token’s Expiry Time): the verification is then EXPIRED and IDENTIFICATION_EXPIRED is sent, as when you press “Expire now”.</p>`;
}

/** The choices for each state the person (or a reviewer) can act in. */
function choicesOf(session: KycSession): string[] {
	const reupload = session.state === 'REUPLOAD_REQUESTED';
	const kind = reupload ? 'IDENTIFICATION_RESUBMITTED' : 'IDENTIFICATION_AUTO_FINISHED';
	if (session.state === 'AWAITING_MANUAL_REVIEW') {
		return [
			choice(
				'result',
				'APPROVED',
				'Approve as the reviewer',
				'Sends IDENTIFICATION_MANUAL_FINISHED, final, overall APPROVED.',
			),
			choice(
				'result',
				'DENIED',
				'Deny as the reviewer',
				'Sends IDENTIFICATION_MANUAL_FINISHED, final, overall DENIED.',
			),
		];
	}
	const list = [
		choice(
			'result',
			'APPROVED',
			'Finish as approved',
			`The automated review approves it: ${kind}, final, overall APPROVED.`,
		),
		choice(
			'result',
			'DENIED',
			'Finish as denied',
			`The automated review denies it: ${kind}, final, overall DENIED.`,
		),
		choice(
			'result',
			'SUSPECTED',
			'Finish as suspected',
			`The automated review is unsure: ${kind}, not final, overall SUSPECTED. A reviewer then decides on this page (IDENTIFICATION_MANUAL_FINISHED).`,
		),
		choice(
			'result',
			'EXPIRED',
			'Expire now',
			'As if the Expiry Time passed with nobody finishing: IDENTIFICATION_EXPIRED, overall EXPIRED. Its personal data can then be deleted.',
		),
	];
	if (!reupload)
		list.push(
			choice(
				'result',
				'CANCELLED',
				'Cancel',
				'The person gives up: IDENTIFICATION_CANCELLED, overall DENIED (the service has no CANCELLED status).',
			),
		);
	return list;
}

function form(session: KycSession, buttons: string[]): string {
	return (
		'<form method="post" action="/api/v2/redirect">' +
		`<input type="hidden" name="authToken" value="${escapeHtml(session.authToken)}">` +
		`${buttons.join('')}</form>`
	);
}

function choicePage(core: SandboxCore, session: KycSession): Reply {
	if (session.state === 'AWAITING_MANUAL_REVIEW') {
		return page(
			200,
			'Manual review (sandbox)',
			`${sessionLine(session)}<p>The automated review flagged this verification. Decide as the reviewer would in the dashboard.</p>` +
				`${targetsLine(core, session)}${form(session, choicesOf(session))}`,
		);
	}
	const what =
		session.state === 'REUPLOAD_REQUESTED'
			? 'The service asked this person to upload their documents again.'
			: 'Here the real service would guide the person through a photo of their document and a selfie.';
	return page(
		200,
		'Identity verification (sandbox)',
		`${sessionLine(session)}<p>${what} In the sandbox you choose the result; the matching webhook is sent at once.</p>` +
			`${targetsLine(core, session)}${expiryLine(session)}${form(session, choicesOf(session))}`,
	);
}

/** A finished verification can be asked to upload again (Request Information); others have ended. */
function endedPage(session: KycSession): Reply {
	const reupload =
		session.state === 'FINISHED' && session.deletedAt === undefined
			? form(session, [
					choice(
						'result',
						'REUPLOAD',
						'Ask for a re-upload',
						'As Request Information does: the person gets a new link to upload their documents again (no webhook is sent; finishing it sends IDENTIFICATION_RESUBMITTED).',
					),
				])
			: '';
	return page(
		409,
		'This verification has ended',
		`${sessionLine(session)}<p>Its state is ${escapeHtml(session.state)}: there is nothing left to do here.</p>${reupload}`,
	);
}

const OPEN = ['IN_PROGRESS', 'REUPLOAD_REQUESTED', 'AWAITING_MANUAL_REVIEW'];

/** A choice the session's state does not allow: the page of what can be done (409). */
function notNowPage(core: SandboxCore, session: KycSession): Reply {
	if (!OPEN.includes(session.state)) return endedPage(session);
	const current = choicePage(core, session);
	return { ...current, status: 409 };
}

/** Whether the choice can be made in the session's state. */
function allowed(session: KycSession, result: Result): boolean {
	switch (session.state) {
		case 'IN_PROGRESS':
			return result !== 'REUPLOAD';
		case 'REUPLOAD_REQUESTED':
			return result !== 'REUPLOAD' && result !== 'CANCELLED';
		case 'AWAITING_MANUAL_REVIEW':
			return result === 'APPROVED' || result === 'DENIED';
		case 'FINISHED':
			return result === 'REUPLOAD' && session.deletedAt === undefined;
		default:
			return false;
	}
}

/** Makes the choice; the deliveries go on in the background (their retries too). */
function act(core: SandboxCore, session: KycSession, result: Exclude<Result, 'REUPLOAD'>) {
	const { scanRef } = session;
	if (session.state === 'AWAITING_MANUAL_REVIEW')
		return core.kyc.manualFinish(scanRef, { overall: result });
	if (result === 'EXPIRED') return core.kyc.expire(scanRef);
	if (result === 'CANCELLED') return core.kyc.cancel(scanRef);
	const suspected = result === 'SUSPECTED';
	if (session.state === 'REUPLOAD_REQUESTED') {
		return core.kyc.userResubmits(scanRef, {
			needsReview: suspected,
			overall: result,
			reviewNow: false,
		});
	}
	return core.kyc.autoFinish(scanRef, {
		final: !suspected,
		overall: result,
	});
}

const TITLES: Record<string, string> = {
	APPROVED: 'Verification approved',
	DENIED: 'Verification denied',
	SUSPECTED: 'Verification sent to a manual review',
	EXPIRED: 'Verification expired',
	CANCELLED: 'Verification cancelled',
};

/** The address the service would send the person on to, from the token request. */
function nextUrl(session: KycSession, result: string): string | undefined {
	const url = result === 'APPROVED' ? session.request.successUrl : session.request.errorUrl;
	return typeof url === 'string' && /^https?:\/\//i.test(url) ? url : undefined;
}

/** What happens next, in words: the reviewer's page, the erasure, or the token's own address. */
function nextLine(session: KycSession, result: string, origin: string): string {
	if (session.state === 'AWAITING_MANUAL_REVIEW') {
		const link = redirectUrlOf({ origin }, session.authToken);
		return `<p><a href="${escapeHtml(link)}">Decide as the reviewer</a> (this page, now in its manual review).</p>`;
	}
	const erasable =
		session.state === 'EXPIRED' || session.state === 'CANCELLED'
			? '<p>The link can no longer be used: Delete Personal Data now removes the verification’s data.</p>'
			: '';
	const next = nextUrl(session, result);
	return (
		erasable +
		(next
			? `<p><a href="${escapeHtml(next)}">Continue to ${escapeHtml(next)}</a></p>`
			: '<p>You can close this page.</p>')
	);
}

async function finishedPage(
	session: KycSession,
	result: string,
	deliveries: Delivery[],
	origin: string,
): Promise<Reply> {
	await firstAnswers(deliveries);
	const kind = session.events[session.events.length - 1];
	const overall = String(session.lastStatus?.overall ?? result);
	const title =
		kind === 'IDENTIFICATION_MANUAL_FINISHED'
			? `${TITLES[result]} by the reviewer`
			: TITLES[result];
	const recorded = `<p>The sandbox recorded the result: ${escapeHtml(kind)} with overall status ${escapeHtml(overall)}.</p>`;
	const sent = deliveries.length > 0 ? deliveriesHtml(deliveries) : nothingSent('was');
	return page(
		200,
		title,
		`${sessionLine(session)}${recorded}${sent}${nextLine(session, result, origin)}`,
	);
}

/** Request Information from the page: the new link, which the person would be sent. */
function reuploadPage(core: SandboxCore, session: KycSession, origin: string): Reply {
	core.kyc.requestInformation(session.scanRef);
	const link = redirectUrlOf({ origin }, session.authToken);
	return page(
		200,
		'Re-upload requested',
		`${sessionLine(session)}<p>The person is asked to upload their documents again (no webhook is sent now). Their new link; the old one no longer works:</p>` +
			`<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`,
	);
}

export const verificationPageRoutes: Route[] = [
	{
		method: 'GET',
		pattern: '/api/v2/redirect',
		auth: 'public',
		handler: (req, core) => {
			const session = core.kyc.byAuthToken(req.query.get('authToken') ?? '');
			if (!session) return unknownLink();
			return OPEN.includes(session.state) ? choicePage(core, session) : endedPage(session);
		},
	},
	{
		method: 'POST',
		pattern: '/api/v2/redirect',
		auth: 'public',
		handler: async (req, core) => {
			const fields = formOf(req.rawBody);
			const session = core.kyc.byAuthToken(fields.get('authToken') ?? '');
			if (!session) return unknownLink();
			const result = fields.get('result') as Result;
			if (!RESULTS.includes(result))
				return page(
					400,
					'Choose a result',
					'<p>The result must be APPROVED, DENIED, SUSPECTED, EXPIRED, CANCELLED or REUPLOAD.</p>',
				);
			if (!allowed(session, result)) return notNowPage(core, session);
			if (result === 'REUPLOAD') return reuploadPage(core, session, req.origin);
			const before = core.webhooks.log.length;
			act(core, session, result).catch(() => undefined);
			return finishedPage(session, result, core.webhooks.log.slice(before), req.origin);
		},
	},
];
