/**
 * A body of every event kind (signed and posted by the tests): the contract's kinds as it describes
 * them, the provider's other kinds shaped as its published schemas (test/fixtures/real-service/),
 * and for OTHER a body that shows no product.
 */
import type { EventType } from '../../../nodes/shared/contract';

export const BODIES: Record<EventType, Record<string, unknown>> = {
	BANK_VERIFICATION: {
		id: '5f0b6f5e-8f4a-4b8e-9a51-2f1f1f9c2a10',
		country: 'LT',
		bank: 'Swedbank',
		accounts: [
			{
				id: '9d3c2a51-0f7e-4c4b-9a8e-1b2c3d4e5f60',
				name: 'Main account',
				iban: 'LT601010012345678901',
				currency: 'EUR',
				balancesOverview: { bookedBalance: 1200.5, availableBalance: 1100 },
				transactionsCount: 37,
			},
		],
		riskLevel: 'LOW',
	},
	ACCOUNT_CHECK: {
		scanRef: null,
		clientId: 'c-1',
		authToken: null,
		date: '2026-11-01',
		status: 3,
		score: 0.73,
		facebookScore: null,
		gmailScore: 0.9,
		ipScore: 0.1,
	},
	IDENTIFICATION_AUTO_FINISHED: {
		final: true,
		scanRef: 'scan-auto',
		clientId: 'user-1',
		status: { overall: 'APPROVED' },
	},
	IDENTIFICATION_MANUAL_FINISHED: {
		final: true,
		scanRef: 'scan-manual',
		clientId: 'user-2',
		status: { overall: 'DENIED' },
	},
	IDENTIFICATION_RESUBMITTED: {
		final: false,
		scanRef: 'scan-resub',
		clientId: 'user-3',
		status: { overall: 'REVIEWING' },
	},
	IDENTIFICATION_EXPIRED: {
		scanRef: 'scan-exp',
		clientId: 'user-4',
		status: { overall: 'EXPIRED' },
	},
	// The provider has no CANCELLED overall status: a cancelled session carries another one.
	IDENTIFICATION_CANCELLED: {
		final: true,
		scanRef: 'scan-can',
		clientId: 'user-5',
		status: { overall: 'DENIED' },
	},
	IDENTIFICATION: {
		final: true,
		scanRef: 'scan-legacy',
		clientId: 'user-6',
		status: { overall: 'SUSPECTED' },
	},
	BANK_CARD_VERIFICATION_COMPLETED: {
		bankCardVerification: { status: 'APPROVED', cardHolder: 'Jonas Jonaitis', last4: '4242' },
	},
	COMPANY_REVIEW: { formId: 'form-001', companyId: 'company-001', status: 'APPROVED' },
	COMPANY_SUBMIT: {
		id: 'company-002',
		companyName: 'Acme UAB',
		clientId: 'client-7',
		beneficiaries: [],
	},
	COMPANY_INFO_REQUEST: { id: 'company-003', companyName: 'Acme UAB', clientId: 'client-7' },
	COMPANY_AML_REVIEW: {
		id: 'company-004',
		companyName: 'Acme UAB',
		beneficiaries: [{ id: 'b-1', amlCheck: { overallStatus: 'NO_FLAGS' } }],
	},
	COMPANY_EXPIRATION: { id: 'company-005', companyName: 'Acme UAB', clientId: 'client-7' },
	COMPANY_DELETE: { id: 'company-006', companyName: 'Acme UAB', clientId: 'client-7' },
	GOV_ORDERED_DOCUMENT: { companyId: 'company-007', documentUrl: 'https://example.com/doc.pdf' },
	SOS_REPORT: { companyId: 'company-008', reportUrl: 'https://example.com/report.pdf' },
	AML_MONITORING: {
		monitoringId: 'm-1',
		name: 'Jonas',
		surname: 'Jonaitis',
		nationality: 'LT',
		dob: null,
		isActive: true,
		expiration: null,
		scanRefList: ['scan-1'],
		alertStatus: 'ACCEPTED',
		status: 'ACTIVE',
		pepsStatus: 'NO_FLAGS',
		sanctionsStatus: 'NO_FLAGS',
		adverseMediaStatus: null,
		results: [],
		amlCheck: null,
	},
	AML_MONITORING_EXPIRATION: { usersToExtend: 2, usersToExpire: 1 },
	DOCUMENT_EXPIRATION: { scanRef: 'scan-doc', clientId: 'user-8', docExpiry: '2027-01-31' },
	FACIAL_AUTHENTICATION: { scanRef: 'scan-face', clientId: 'user-9', status: 'SUCCESS' },
	AGE_ESTIMATION: {
		scanRef: 'scan-age',
		status: 'COMPLETED',
		outcome: 'SUCCESS',
		estimatedAge: 31,
		clientId: 'user-10',
		occurredAt: '2026-11-01T10:00:00Z',
	},
	VIDEO_CALL_FINISHED: { scanRef: 'scan-video', clientId: 'user-11' },
	OTHER: { note: 'a body that shows no product' },
};
