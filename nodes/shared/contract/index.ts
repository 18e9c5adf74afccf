/**
 * The service contract in zod (docs/service-interface.md says it in words): one module for the
 * nodes, the sandbox and the tests, one file per product area. Request schemas enforce every rule
 * the contract states; response and webhook schemas accept unknown extra fields (the service may
 * add fields at any time). This index re-exports what the nodes, the build and the tests use.
 */
export { LIMITS, describeIssues, uuidSchema, type ContractIssue } from './common';
export {
	KYC_DOCUMENT_TYPES,
	scanRefSchema,
	verificationStatusRequestSchema,
	verificationStatusSchema,
	verificationTokenRequestSchema,
	verificationTokenResponseSchema,
} from './kyc';
export {
	BANK_COUNTRIES,
	amountSchema,
	bankCountrySchema,
	bankTokenRequestSchema,
	bankTokenSchema,
	bankTransactionSchema,
	listTransactionsParamsSchema,
	partySchema,
	transactionPageSchema,
	type BankTransaction,
	type TransactionPage,
} from './bank';
export { poaCheckRequestSchema, poaCheckSchema, type PoaFileType } from './poa';
export { amlProfilePdfParamsSchema } from './aml';
export {
	kybFormParamsSchema,
	kybQuestionnaireParamsSchema,
	questionnaireAnswersSchema,
} from './kyb';
export {
	COMPANY_EVENT_TYPES,
	EVENT_TYPES,
	IDENTIFICATION_EVENT_TYPES,
	RISK_LEVELS,
	DEFAULT_HEADER_PREFIX,
	cleanHeaderPrefix,
	WEBHOOK_HEADERS,
	webhookHeaders,
	accountCheckWebhookSchema,
	bankAccountSchema,
	bankVerificationWebhookSchema,
	identificationWebhookSchema,
	identityVerificationEventSchema,
	verificationEventItemSchema,
	webhookBodySchemas,
	type EventType,
} from './webhooks';
