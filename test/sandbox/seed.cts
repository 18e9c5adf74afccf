/** Default credentials and the stable ids the sandbox seeds at start (used by demo workflows and tests). */
import type { AmlMonitoringRequest } from '../../nodes/shared/contract';
import type { SandboxCredentials } from './types.cjs';

export const SANDBOX_DEFAULTS: Readonly<SandboxCredentials> = Object.freeze({
	apiKey: 'sandbox-api-key',
	apiSecret: 'sandbox-api-secret',
	kybFormToken: 'sandbox-kyb-form-token',
	signingKey: 'sandbox-signing-key',
});

export const SEED = {
	bank: {
		verificationId: '5f0b6f5e-8f4a-4b8e-9a51-2f1f1f9c2a10',
		accountId: '9d3c2a51-0f7e-4c4b-9a8e-1b2c3d4e5f60',
		transactions: 1037,
	},
	aml: {
		checkId: '3b1f8c2e-6d4a-4f0b-8e21-7a9c5d3e1f42',
		profileId: 'prof-001',
		password: 'report-password',
		/** A monitoring of a person on no list (ACTIVE), expiring in a year. */
		monitoringId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
	},
	kyb: {
		companyId: 'company-001',
		questionnaireId: 'questionnaire-001',
		formId: 'form-001',
		clientId: 'kyb-client-001',
	},
	poa: { name: 'Jonas Jonaitis', address: 'Gedimino pr. 1, 01103 Vilnius, Lithuania' },
} as const;

/**
 * What the demo seeds besides SEED (the tests start from SEED alone): a monitoring of a name on the
 * sandbox's lists (Aleksandr Volkov, sanctions: `prof-001`), in ALERT from its first screening, so
 * the alert-triage example's AML_MONITORING (this monitoring's daily screening) takes its alert
 * branch: get the monitoring, its report, the reviewer, stop. And a verification six years old.
 */
export const DEMO_SEED: {
	amlAlertMonitoring: AmlMonitoringRequest;
	oldVerificationClientId: string;
} = {
	/** The client of a verification approved six years ago: the retention purge example erases it. */
	oldVerificationClientId: 'demo-customer-2020',
	amlAlertMonitoring: {
		isSubscribed: false,
		amlCheck: {
			clientId: 'demo-customer-42',
			userType: 'PERSON',
			input: { fullName: 'Aleksandr Volkov', dateOfBirth: '1968-02-11', nationality: 'LT' },
		},
		tags: ['demo'],
	},
};

/** Transactions per page when `perPage` is absent or not a positive whole number (the sandbox's choice). */
export const DEFAULT_PER_PAGE = 50;
/** Larger `perPage` values are capped to this (the sandbox's choice; the contract shows no maximum). */
export const MAX_PER_PAGE = 500;
