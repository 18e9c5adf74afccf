/**
 * The sample delivery the trigger emits while it listens for a test event and the Test URL is
 * opened in a browser: one small body per event kind, shaped like the service's body of that kind
 * (made-up people and companies), so a workflow can be tried with a kind its Events option selects
 * before the service sends anything.
 */
import type { IDataObject } from 'n8n-workflow';

import type { EventType } from '../contract';

/** What the sample does not show, in its item and in the answer the browser gets. */
export const SAMPLE_NOTE =
	'A made-up sample event. Its signature was not checked, so it does not show that the signing key or the header prefix is right: only a delivery from the service does (a wrong one is refused with its reason).';

/** An identification result with a decision; the identification kinds share this body. */
function identification(overall: string, manual: boolean): IDataObject {
	return {
		final: true,
		platform: 'PC',
		status: {
			overall,
			fraudTags: [],
			mismatchTags: [],
			suspicionReasons: [],
			autoFace: 'FACE_MATCH',
			manualFace: manual ? 'FACE_MATCH' : null,
			autoDocument: 'DOC_VALIDATED',
			manualDocument: manual ? 'DOC_VALIDATED' : null,
			additionalSteps: null,
		},
		data: {
			docFirstName: 'JONAS',
			docLastName: 'SAMPLE',
			docNumber: 'AB0000000',
			docExpiry: '2031-01-31',
			docDob: '1990-12-31',
			docType: 'ID_CARD',
			docNationality: 'LT',
			fullName: 'JONAS SAMPLE',
		},
		scanRef: '00000000-0000-4000-8000-000000000042',
		clientId: 'sample-customer-42',
		startTime: 1767225600,
		finishTime: 1767225780,
	};
}

const company = { id: 'sample-company-7', companyName: 'Sample Trading UAB', clientId: 'sample-7' };

export const SAMPLE_BODIES: Record<EventType, IDataObject> = {
	IDENTIFICATION_AUTO_FINISHED: identification('APPROVED', false),
	IDENTIFICATION_MANUAL_FINISHED: identification('APPROVED', true),
	IDENTIFICATION_RESUBMITTED: identification('APPROVED', false),
	IDENTIFICATION_EXPIRED: identification('EXPIRED', false),
	IDENTIFICATION_CANCELLED: identification('DENIED', false),
	IDENTIFICATION: identification('APPROVED', false),
	COMPANY_REVIEW: { ...company, approvalStatus: 'APPROVED', beneficiaries: [] },
	COMPANY_SUBMIT: { ...company, beneficiaries: [] },
	COMPANY_INFO_REQUEST: company,
	COMPANY_AML_REVIEW: { ...company, amlReviewSubjectType: 'COMPANY' },
	COMPANY_EXPIRATION: company,
	COMPANY_DELETE: company,
	GOV_ORDERED_DOCUMENT: { companyId: 'sample-company-7', documentUrl: 'https://example.com/doc' },
	SOS_REPORT: { companyId: 'sample-company-7', reportUrl: 'https://example.com/report' },
	AML_MONITORING: {
		monitoringId: 'sample-monitoring-3',
		status: 'ACTIVE',
		alertStatus: 'ACCEPTED',
	},
	AML_MONITORING_EXPIRATION: { usersToExtend: 2, usersToExpire: 1 },
	BANK_VERIFICATION: {
		id: 'sample-bank-9',
		country: 'LT',
		bank: 'Sample Bank',
		accounts: [],
		riskLevel: 'LOW',
	},
	BANK_CARD_VERIFICATION_COMPLETED: { firstSix: '400000', lastFour: '0002', status: 'MATCH' },
	ACCOUNT_CHECK: { scanRef: null, clientId: 'sample-customer-42', status: 3, score: 0.7 },
	DOCUMENT_EXPIRATION: {
		scanRef: '00000000-0000-4000-8000-000000000042',
		clientId: 'sample-customer-42',
		docExpiry: '2031-01-31',
	},
	FACIAL_AUTHENTICATION: {
		scanRef: 'sample-face-1',
		clientId: 'sample-customer-42',
		status: 'SUCCESS',
	},
	AGE_ESTIMATION: { scanRef: 'sample-age-1', status: 'COMPLETED', outcome: 'SUCCESS' },
	VIDEO_CALL_FINISHED: { scanRef: 'sample-call-1', clientId: 'sample-customer-42' },
	OTHER: { note: 'A delivery of a kind this node does not know' },
};
