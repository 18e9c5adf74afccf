/** Realistic default webhook bodies for every event kind (the contract shows only some fields). */
import { randomUUID } from 'node:crypto';
import { EVENT_TYPES, type EventType } from '../../nodes/shared/contract';
import { SEED } from './seed.cjs';

export interface IdentificationContext {
	scanRef?: string;
	clientId?: string;
	final?: boolean;
	overall?: string;
	/** Whether a human reviewer produced the result (manual* fields filled). */
	manual?: boolean;
}

const DEFAULT_OVERALL: Partial<Record<EventType, string>> = {
	IDENTIFICATION_EXPIRED: 'EXPIRED',
	// The service has no CANCELLED overall status: a cancelled session carries another one.
	IDENTIFICATION_CANCELLED: 'DENIED',
};

export function identificationBody(
	eventType: EventType,
	ctx: IdentificationContext = {},
): Record<string, unknown> {
	const overall = ctx.overall ?? DEFAULT_OVERALL[eventType] ?? 'APPROVED';
	const finished = !['IDENTIFICATION_EXPIRED', 'IDENTIFICATION_CANCELLED'].includes(eventType);
	const scanRef = ctx.scanRef ?? randomUUID();
	const now = Date.now();
	const docStatus = overall === 'DENIED' ? 'DOC_NOT_SUPPORTED' : 'DOC_VALIDATED';
	const faceStatus = overall === 'DENIED' ? 'FACE_MISMATCH' : 'FACE_MATCH';
	return {
		final: ctx.final ?? true,
		platform: 'PC',
		status: {
			overall,
			suspicionReasons: overall === 'SUSPECTED' ? ['FACE_SUSPECTED'] : [],
			mismatchTags: [],
			fraudTags: [],
			autoDocument: finished ? docStatus : null,
			autoFace: finished ? faceStatus : null,
			manualDocument: finished && ctx.manual ? docStatus : null,
			manualFace: finished && ctx.manual ? faceStatus : null,
			additionalSteps: null,
			amlResultClass: 'NOT_CHECKED',
			pepsStatus: 'NOT_CHECKED',
			sanctionsStatus: 'NOT_CHECKED',
			adverseMediaStatus: 'NOT_CHECKED',
		},
		data: finished
			? {
					docFirstName: 'JONAS',
					docLastName: 'JONAITIS',
					docNumber: 'LT1234567',
					docPersonalCode: '38504120123',
					docExpiry: '2031-05-20',
					docDob: '1985-04-12',
					docDateOfIssue: '2021-05-20',
					docType: 'ID_CARD',
					docSex: 'MALE',
					docNationality: 'LT',
					docIssuingCountry: 'LT',
					birthPlace: 'VILNIUS',
					authority: 'MIGRACIJOS DEPARTAMENTAS',
					address: SEED.poa.address,
					fullName: 'JONAS JONAITIS',
					selectedCountry: 'LT',
					manuallyDataChanged: false,
					orgFirstName: 'JONAS',
					orgLastName: 'JONAITIS',
					ageEstimate: 'OVER_25',
					clientIpProxyRiskLevel: 'LOW',
					duplicateFaces: [],
					duplicateDocFaces: [],
				}
			: {},
		fileUrls: {},
		AML: [],
		LID: [],
		bankCardVerification: null,
		scanRef,
		externalRef: null,
		clientId: ctx.clientId ?? 'client-001',
		companyId: null,
		beneficiaryId: null,
		startTime: Math.floor((now - 300000) / 1000),
		finishTime: Math.floor(now / 1000),
		clientIp: '127.0.0.1',
		clientIpCountry: 'LT',
		clientLocation: 'Vilnius',
		gdcMatch: null,
		manualAddress: null,
		manualAddressMatch: false,
		registryCenterCheck: null,
		addressVerification: null,
		questionnaireAnswers: null,
		additionalStepPdfUrls: {},
	};
}

function bankVerificationBody(): Record<string, unknown> {
	return {
		id: SEED.bank.verificationId,
		country: 'LT',
		bank: 'Swedbank',
		accounts: [
			{
				id: SEED.bank.accountId,
				name: 'Jonas Jonaitis',
				iban: 'LT601010012345678901',
				currency: 'EUR',
				balancesOverview: { bookedBalance: 1520.35, availableBalance: 1480.1 },
				transactionsCount: SEED.bank.transactions,
			},
		],
		riskLevel: 'LOW',
	};
}

function accountCheckBody(): Record<string, unknown> {
	return {
		scanRef: randomUUID(),
		clientId: 'client-001',
		authToken: null,
		date: new Date().toISOString(),
		status: 2,
		score: 0.82,
		facebookScore: 0.7,
		gmailScore: 0.9,
		ipScore: 0.85,
	};
}

function cardCheckBody(): Record<string, unknown> {
	return {
		id: randomUUID(),
		clientId: 'client-001',
		createdAt: new Date().toISOString(),
		bankCardVerification: {
			status: 'APPROVED',
			cardHolderName: 'JONAS JONAITIS',
			nameMatch: true,
			cardBrand: 'VISA',
			cardLast4: '4242',
			cardCountry: 'LT',
			cardExpiry: '2028-09',
			threeDSecure: true,
		},
	};
}

export function kybReviewBody(
	opts: { formId?: string; companyId?: string; status?: string } = {},
): Record<string, unknown> {
	return {
		formId: opts.formId ?? SEED.kyb.formId,
		companyId: opts.companyId ?? SEED.kyb.companyId,
		status: opts.status ?? 'APPROVED',
		reviewedAt: new Date().toISOString(),
		comment: opts.status === 'REJECTED' ? 'Ultimate beneficial owner could not be verified.' : null,
	};
}

/** The kinds the sandbox sends: every kind the service has (OTHER stands for one it does not). */
export const SANDBOX_EVENT_TYPES: readonly EventType[] = EVENT_TYPES.filter(
	(kind) => kind !== 'OTHER',
);

/** Default bodies of the service's other kinds, after its published schemas. */
function otherKindBody(eventType: EventType): Record<string, unknown> {
	const company = { id: randomUUID(), companyName: 'Acme UAB', clientId: 'client-7' };
	switch (eventType) {
		case 'COMPANY_SUBMIT':
		case 'COMPANY_INFO_REQUEST':
		case 'COMPANY_EXPIRATION':
		case 'COMPANY_DELETE':
			return { ...company, beneficiaries: [] };
		case 'COMPANY_AML_REVIEW':
			return { ...company, beneficiaries: [], amlCheck: { overallStatus: 'NO_FLAGS' } };
		case 'GOV_ORDERED_DOCUMENT':
		case 'SOS_REPORT':
			return {
				companyId: SEED.kyb.companyId,
				documentUrl: 'https://example.com/doc.pdf',
				id: randomUUID(),
			};
		case 'AML_MONITORING':
			return {
				monitoringId: randomUUID(),
				name: 'JONAS',
				surname: 'JONAITIS',
				isActive: true,
				status: 'ACTIVE',
				results: [],
			};
		case 'AML_MONITORING_EXPIRATION':
			return { usersToExtend: 2, usersToExpire: 1, note: null };
		case 'AGE_ESTIMATION':
			return {
				scanRef: randomUUID(),
				status: 'COMPLETED',
				outcome: 'SUCCESS',
				occurredAt: new Date().toISOString(),
			};
		default:
			return { scanRef: randomUUID(), clientId: 'client-7', status: 'SUCCESS' };
	}
}

export function sampleBody(eventType: EventType): unknown {
	switch (eventType) {
		case 'BANK_VERIFICATION':
			return bankVerificationBody();
		case 'ACCOUNT_CHECK':
			return accountCheckBody();
		case 'BANK_CARD_VERIFICATION_COMPLETED':
			return cardCheckBody();
		case 'COMPANY_REVIEW':
			return kybReviewBody();
		case 'IDENTIFICATION_AUTO_FINISHED':
		case 'IDENTIFICATION_MANUAL_FINISHED':
		case 'IDENTIFICATION_RESUBMITTED':
		case 'IDENTIFICATION_EXPIRED':
		case 'IDENTIFICATION_CANCELLED':
		case 'IDENTIFICATION':
			return identificationBody(eventType, {
				manual: eventType === 'IDENTIFICATION_MANUAL_FINISHED',
			});
		case 'OTHER':
			throw new Error('OTHER is not a kind the service sends');
		default:
			return otherKindBody(eventType);
	}
}
