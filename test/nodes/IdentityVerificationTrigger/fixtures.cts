/** Bodies of every event kind, shaped as the contract describes them (signed and posted by the tests). */
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
	IDENTIFICATION_CANCELLED: {
		scanRef: 'scan-can',
		clientId: 'user-5',
		status: { overall: 'CANCELLED' },
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
	KYB_REVIEW_RESULT: { formId: 'form-001', companyId: 'company-001', status: 'APPROVED' },
};
