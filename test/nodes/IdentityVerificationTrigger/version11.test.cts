/**
 * Version 1.1 of the trigger, as a user sees its items: the decision and references first, readable
 * dates, the delivery's technical fields grouped under `delivery`, the provider's kind names, the
 * Personal Data choice, and the sample event a browser gets while the workflow listens for a test
 * event. Version 1 keeps its items (the other trigger tests run it).
 */
import type { INodeParameters } from 'n8n-workflow';
import { request } from 'undici';

import { SAMPLE_NOTE } from '../../../nodes/shared/webhook/sample';

import { BODIES } from './fixtures.cjs';
import { lastEvent, postSigned, useTriggerHosts } from './util.cjs';

const KEY = 'whsec-version-11';

const host = useTriggerHosts(KEY);
const v11 = (parameters: INodeParameters = {}, mode?: 'manual' | 'webhook') =>
	host({ typeVersion: 1.1, parameters, ...(mode ? { mode } : {}) });

/** An identification body as the service sends it: times in Unix seconds, document data. */
const identification = {
	final: true,
	platform: 'PC',
	status: {
		overall: 'DENIED',
		fraudTags: ['FACE_SUSPECTED'],
		autoDocument: 'DOC_VALIDATED',
		suspicionReasons: ['FACE_SUSPECTED'],
		// Fields the service might add to the status one day: personal data, not a decision.
		reviewerNote: 'Documents of ŁUKASZ MÜLLER checked',
		contactEmail: 'lukasz@example.com',
		manualFace: { reviewer: 'Ona Reviewer' },
	},
	data: { docFirstName: 'ŁUKASZ', docLastName: 'MÜLLER', docDob: '1990-12-31', docNumber: 'X1' },
	scanRef: 's-11',
	clientId: 'customer-11',
	startTime: 1767225600,
	finishTime: 1767225780,
	clientIp: '192.0.2.7',
};

describe('the item of version 1.1', () => {
	test('leads with the decision and references, dates readable, the technical fields under delivery', async () => {
		const h = await v11();
		await postSigned(h.url, identification, { key: KEY, eventType: 'IDENTIFICATION_EXPIRED' });
		const item = lastEvent(h);
		expect(Object.keys(item)).toEqual([
			'eventType',
			'overallStatus',
			'final',
			'scanRef',
			'clientId',
			'startedAt',
			'finishedAt',
			'receivedAt',
			'decision',
			'body',
			'delivery',
		]);
		expect(item).toMatchObject({
			eventType: 'IDENTIFICATION_EXPIRED',
			overallStatus: 'DENIED',
			startedAt: '2026-01-01T00:00:00.000Z',
			finishedAt: '2026-01-01T00:03:00.000Z',
			body: identification,
			delivery: { eventTypeSource: 'header', headerMatchesBody: true },
		});
		expect(item.delivery.deliveryId).toMatch(/^[0-9a-f]{64}$/);
		// No empty fields under delivery either (n8n shows an undefined key as an empty column).
		expect(Object.keys(item.delivery)).toEqual([
			'deliveryId',
			'eventTypeSource',
			'headerMatchesBody',
		]);
	});

	test('with Personal Data left out, nothing of the person is in the item, not even a field the service adds to the status', async () => {
		const h = await v11({ personalData: 'leaveOut' });
		await postSigned(h.url, identification, {
			key: KEY,
			eventType: 'IDENTIFICATION_MANUAL_FINISHED',
		});
		const item = lastEvent(h);
		expect(item).not.toHaveProperty('body');
		expect(item).not.toHaveProperty('statusDetails');
		const text = JSON.stringify(item);
		for (const personal of [
			'ŁUKASZ',
			'MÜLLER',
			'1990-12-31',
			'X1',
			'192.0.2.7',
			'lukasz@example.com',
			'Ona Reviewer',
		]) {
			expect(text).not.toContain(personal);
		}
		expect(item).toMatchObject({ overallStatus: 'DENIED', scanRef: 's-11', final: true });
	});

	test('the decision’s reasons are at one path, decision, with personal data included or left out', async () => {
		const decision = {
			overall: 'DENIED',
			fraudTags: ['FACE_SUSPECTED'],
			autoDocument: 'DOC_VALIDATED',
			suspicionReasons: ['FACE_SUSPECTED'],
		};
		for (const personalData of ['include', 'leaveOut']) {
			const h = await v11({ personalData });
			await postSigned(h.url, identification, {
				key: KEY,
				eventType: 'IDENTIFICATION_MANUAL_FINISHED',
			});
			// Only the decision fields of the status, and of them only statuses and tags (manualFace
			// is an object here: left out, as it could hold anything).
			expect(lastEvent(h).decision).toEqual(decision);
		}
	});

	test('a company review is COMPANY_REVIEW with its decision and company', async () => {
		const h = await v11();
		const body = {
			id: 'comp-1',
			companyName: 'Acme UAB',
			approvalStatus: 'APPROVED',
			clientId: 'c',
			beneficiaries: [],
		};
		await postSigned(h.url, body, { key: KEY, eventType: 'COMPANY_REVIEW' });
		expect(lastEvent(h)).toMatchObject({
			eventType: 'COMPANY_REVIEW',
			approvalStatus: 'APPROVED',
			companyId: 'comp-1',
			clientId: 'c',
		});
		expect(lastEvent(h)).not.toHaveProperty('overallStatus');
	});

	test.each([
		// kyb.yaml's GovPartnerOrderedDocument and SosReportWebhook: `id` is the document's, the report's.
		['GOV_ORDERED_DOCUMENT', { id: 'doc-1', title: 'Extract', status: 'FINISHED', file: 'x' }],
		['SOS_REPORT', { id: 'sos-1', companyName: 'Acme LLC', status: 'FINISHED' }],
	])('%s: the id of the document or report is not given as the company’s', async (kind, body) => {
		const h = await v11();
		await postSigned(h.url, body, { key: KEY, eventType: kind });
		expect(lastEvent(h)).toMatchObject({ eventType: kind, body });
		expect(lastEvent(h)).not.toHaveProperty('companyId');
		await postSigned(h.url, { ...body, companyId: 'comp-2' }, { key: KEY, eventType: kind });
		expect(lastEvent(h)).toMatchObject({ eventType: kind, companyId: 'comp-2' });
	});

	test('a saved filter on the contract’s KYB_REVIEW_RESULT still lets the company review through', async () => {
		const h = await v11({ events: ['KYB_REVIEW_RESULT'] });
		const res = await postSigned(h.url, BODIES.COMPANY_REVIEW, {
			key: KEY,
			eventType: 'COMPANY_REVIEW',
		});
		expect(res.json).toEqual({ received: true });
		expect(h.emitted).toHaveLength(1);
	});

	test('by default every kind starts the workflow, also one the node does not know', async () => {
		const h = await v11();
		await postSigned(h.url, { hello: 'world' }, { key: KEY, eventType: 'A_KIND_ADDED_LATER' });
		expect(lastEvent(h)).toMatchObject({
			eventType: 'OTHER',
			delivery: { headerEventType: 'A_KIND_ADDED_LATER' },
		});
	});
});

describe('Personal Data: Leave Out keeps a field only with a value of its type in the contract', () => {
	/** The item of one delivery, with personal data included and left out. */
	const both = async (body: Record<string, unknown>, eventType: string) => {
		const items: Array<Record<string, any>> = [];
		for (const personalData of ['include', 'leaveOut']) {
			const h = await v11({ personalData });
			await postSigned(h.url, body, { key: KEY, eventType });
			items.push(lastEvent(h));
		}
		return { included: items[0], leftOut: items[1] };
	};

	test.each([
		['riskLevel', { id: 'b-1', accounts: [], riskLevel: 'Jonas Jonaitis' }, 'BANK_VERIFICATION'],
		['approvalStatus', { id: 'c-1', approvalStatus: 'Approved by Ona Reviewer' }, 'COMPANY_REVIEW'],
		[
			'status',
			{ firstSix: '400000', lastFour: '0002', status: 'Jonas' },
			'BANK_CARD_VERIFICATION_COMPLETED',
		],
		[
			'overallStatus',
			{ final: true, scanRef: 's-o', status: { overall: 'OK for Jonas' } },
			'IDENTIFICATION',
		],
	])('%s holding free text is left out (Include keeps it)', async (field, body, eventType) => {
		const { included, leftOut } = await both(body, eventType);
		expect(included[field]).toBeDefined();
		expect(leftOut).not.toHaveProperty(field);
		expect(JSON.stringify(leftOut)).not.toMatch(/Jonas|Ona/);
	});

	test.each([
		['riskLevel', { id: 'b-2', accounts: [], riskLevel: 'HIGH' }, 'BANK_VERIFICATION', 'HIGH'],
		['approvalStatus', { id: 'c-2', approvalStatus: 'DENIED' }, 'COMPANY_REVIEW', 'DENIED'],
		[
			'status',
			{ firstSix: '400000', lastFour: '0003', status: 'NO_MATCH' },
			'BANK_CARD_VERIFICATION_COMPLETED',
			'NO_MATCH',
		],
		['status', { scanRef: null, status: 4, score: 0.2 }, 'ACCOUNT_CHECK', 4],
		[
			'overallStatus',
			{ final: true, scanRef: 's-p', status: { overall: 'SUSPECTED' } },
			'IDENTIFICATION',
			'SUSPECTED',
		],
	])('%s holding one of the contract’s values is kept', async (field, body, eventType, value) => {
		const { leftOut } = await both(body, eventType);
		expect(leftOut[field]).toBe(value);
	});

	test('the decision keeps no object and no free text, with personal data included or left out', async () => {
		const status = {
			overall: 'APPROVED',
			autoFace: { name: 'Jonas Jonaitis' },
			autoDocument: 'checked by Ona Reviewer',
			fraudTags: ['Jonas Jonaitis'],
			mismatchTags: ['NAME'],
		};
		const { included, leftOut } = await both(
			{ final: true, scanRef: 's-d', status },
			'IDENTIFICATION',
		);
		for (const item of [included, leftOut]) {
			expect(item.decision).toEqual({ overall: 'APPROVED', mismatchTags: ['NAME'] });
		}
	});

	test('a blocklist match keeps its fraud tags as the provider’s blocklist guide spells them, with personal data included or left out', async () => {
		// "flagged with one of the following tags: Face_Blacklisted, Doc_Face_Blacklisted,
		// Data_Blacklisted" (the blocklist setup guide): not in kyc.yaml's FraudTagsEnum.
		const status = {
			overall: 'SUSPECTED',
			fraudTags: ['Face_Blacklisted', 'Doc_Face_Blacklisted', 'Data_Blacklisted'],
			suspicionReasons: ['Face_Blacklisted', 'FACE_SUSPECTED'],
		};
		const { included, leftOut } = await both(
			{ final: true, scanRef: 's-b', status },
			'IDENTIFICATION_AUTO_FINISHED',
		);
		for (const item of [included, leftOut]) expect(item.decision).toEqual(status);
	});

	test('an event-type header that names no kind is left out of delivery; a kind the body overruled is kept', async () => {
		const unknown = await both({ hello: 'world' }, 'jonas.jonaitis@example.com');
		expect(unknown.included.delivery.headerEventType).toBe('jonas.jonaitis@example.com');
		expect(unknown.leftOut.delivery).not.toHaveProperty('headerEventType');
		const overruled = await both(
			{ final: false, scanRef: 's-h', status: { overall: 'APPROVED' } },
			'IDENTIFICATION_MANUAL_FINISHED',
		);
		expect(overruled.leftOut.delivery.headerEventType).toBe('IDENTIFICATION_MANUAL_FINISHED');
	});

	test('the references stay as sent, the Client ID too: workflows find the customer by it', async () => {
		const { leftOut } = await both(
			{ final: true, scanRef: 's-r', clientId: 'jonas@example.com', status: { overall: 'DENIED' } },
			'IDENTIFICATION',
		);
		expect(leftOut).toMatchObject({ scanRef: 's-r', clientId: 'jonas@example.com' });
	});
});

describe('the sample event', () => {
	const open = async (url: string) => {
		const res = await request(url, { method: 'GET' });
		return { status: res.statusCode, json: (await res.body.json()) as Record<string, unknown> };
	};

	test.each([[1], [1.1]])(
		'version %s: opening the Test URL in a browser while listening starts the workflow with a sample approved verification that says it checked nothing',
		async (typeVersion) => {
			const h = await host({ typeVersion, mode: 'manual' });
			const res = await open(h.url);
			expect(res).toEqual({
				status: 200,
				json: { received: true, sample: true, note: SAMPLE_NOTE },
			});
			expect(SAMPLE_NOTE).toMatch(/signature was not checked/);
			expect(lastEvent(h)).toMatchObject({
				eventType: 'IDENTIFICATION_AUTO_FINISHED',
				overallStatus: 'APPROVED',
				final: true,
				clientId: 'sample-customer-42',
				...(typeVersion === 1 ? { sample: SAMPLE_NOTE } : { delivery: { sample: SAMPLE_NOTE } }),
			});
		},
	);

	test.each([
		[['BANK_VERIFICATION', 'BANK_CARD_VERIFICATION_COMPLETED'], 'BANK_VERIFICATION'],
		[['COMPANY_AML_REVIEW'], 'COMPANY_AML_REVIEW'],
		[['OTHER'], 'OTHER'],
	])(
		'listening for %j, the sample is a %s: a kind the Events option selects',
		async (events, kind) => {
			const h = await v11({ events }, 'manual');
			await open(h.url);
			expect(h.emitted).toHaveLength(1);
			expect(lastEvent(h)).toMatchObject({ eventType: kind, delivery: { sample: SAMPLE_NOTE } });
			expect(lastEvent(h)).not.toHaveProperty('overallStatus');
		},
	);

	test('in production a GET starts nothing: only signed deliveries do', async () => {
		const h = await v11();
		const res = await open(h.url);
		expect(res.status).toBe(405);
		expect(res.json).toMatchObject({ received: false });
		expect(h.emitted).toHaveLength(0);
	});
});
