/**
 * Default webhook bodies for every kind the service sends, shaped like its published body schemas
 * (test/fixtures/real-service/openapi/: each document's `webhooks:` names the schema of a kind; the
 * facial authentication and age estimation schemas are in the provider's own files of those
 * products). Personal data is made up, with the non-ASCII letters real documents carry.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { EVENT_TYPES, type EventType } from '../../nodes/shared/contract';
import { SEED } from './seed.cjs';

/** File links in bodies: a reserved name (RFC 2606) that never resolves. */
const FILES = 'https://files.sandbox.invalid';
/** The documentation address range (RFC 5737), as the provider's own example uses. */
const CLIENT_IP = '192.0.2.10';
const DEFAULT_CLIENT_ID = 'client-001';

const unixSeconds = (ms: number) => Math.floor(ms / 1000);
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export interface IdentificationContext {
	scanRef?: string;
	clientId?: string;
	final?: boolean;
	overall?: string;
	/** Whether a human reviewer produced the result (manual* fields filled). */
	manual?: boolean;
	/**
	 * Whether the person's documents were analysed. False for a session that expired or was cancelled
	 * before any attempt: no data, no check statuses.
	 */
	checked?: boolean;
	/** When the session started (ms); `startTime` is 5 minutes ago by default. */
	startedAt?: number;
	/** When it finished (ms); `finishTime` is now by default. */
	finishedAt?: number;
	/** Fraud tags of the result (e.g. Face_Blacklisted when a blocklist caught it). */
	fraudTags?: string[];
}

/** Kinds whose default body is a session nobody went through. */
const UNTOUCHED_KINDS: readonly EventType[] = [
	'IDENTIFICATION_EXPIRED',
	'IDENTIFICATION_CANCELLED',
];

/**
 * The overall status a kind carries by default. The service has no CANCELLED: a cancelled session
 * is reported as DENIED (as one that expired after failed attempts); EXPIRED means "token expired
 * and verification never took place" (its vocabulary page).
 */
const DEFAULT_OVERALL: Partial<Record<EventType, string>> = {
	IDENTIFICATION_EXPIRED: 'EXPIRED',
	IDENTIFICATION_CANCELLED: 'DENIED',
};

/** `status` of an identification body (`IdentificationStatusWebhook`). */
function identificationStatus(
	overall: string,
	checked: boolean,
	manual: boolean,
	fraudTags?: string[],
) {
	const denied = overall === 'DENIED';
	const suspected = overall === 'SUSPECTED';
	const document = !checked ? null : denied ? 'DOC_NOT_SUPPORTED' : 'DOC_VALIDATED';
	const face = !checked
		? null
		: denied
			? 'FACE_MISMATCH'
			: suspected
				? 'FACE_UNCERTAIN'
				: 'FACE_MATCH';
	return {
		overall,
		fraudTags: fraudTags ?? (suspected ? ['FACE_SUSPECTED'] : []),
		mismatchTags: [],
		autoFace: face,
		// "Empty if not reviewed yet" (the service's data retrieval page).
		manualFace: manual ? face : null,
		autoDocument: document,
		manualDocument: manual ? document : null,
		additionalSteps: null,
	};
}

/** What the service read from the document (`IdentificationDataWebhook`). */
const DOCUMENT_DATA = {
	docFirstName: 'ĄŽUOLAS',
	docLastName: 'ŽEMAITIS',
	docNumber: '10293847',
	docPersonalCode: '38504120123',
	docExpiry: '2031-05-20',
	docDob: '1985-04-12',
	docDateOfIssue: '2021-05-20',
	docType: 'ID_CARD',
	docSex: 'MALE',
	docNationality: 'LT',
	docIssuingCountry: 'LT',
	birthPlace: 'ŠIAULIAI',
	authority: 'MIGRACIJOS DEPARTAMENTAS',
	address: 'Žirmūnų g. 12-3, 09214 Vilnius',
	docTemporaryAddress: null,
	mothersMaidenName: null,
	docBirthName: null,
	docPatronymic: null,
	driverLicenseCategory: null,
	manuallyDataChanged: false,
	fullName: 'ĄŽUOLAS ŽEMAITIS',
	selectedCountry: 'LT',
	orgFirstName: 'Ąžuolas',
	orgLastName: 'Žemaitis',
	orgNationality: 'LIETUVOS',
	orgBirthPlace: 'Šiauliai',
	orgAuthority: 'Migracijos departamentas',
	orgAddress: null,
	orgTemporaryAddress: null,
	orgMothersMaidenName: null,
	orgPatronymic: null,
	orgBirthName: null,
	ageEstimate: 'OVER_30',
	clientIpProxyRiskLevel: 'LOW',
	duplicateFaces: [],
	duplicateDocFaces: [],
	additionalData: {},
};

/** The same fields with nothing read (every one is nullable). */
const NO_DOCUMENT_DATA = Object.fromEntries(Object.keys(DOCUMENT_DATA).map((key) => [key, null]));

/** What the service read from a verification's document: nothing (all null) when unchecked or deleted. */
export function documentData(read: boolean): Record<string, unknown> {
	return read ? { ...DOCUMENT_DATA } : { ...NO_DOCUMENT_DATA };
}

/**
 * The body of the six identification kinds (`IdentificationWebhook`): nothing in it names the kind.
 * `companyId`/`beneficiaryId` (set for a verification linked to a KYB company) are null here.
 */
export function identificationBody(
	eventType: EventType,
	ctx: IdentificationContext = {},
): Record<string, unknown> {
	const overall = ctx.overall ?? DEFAULT_OVERALL[eventType] ?? 'APPROVED';
	const checked = ctx.checked ?? !UNTOUCHED_KINDS.includes(eventType);
	const scanRef = ctx.scanRef ?? randomUUID();
	const now = Date.now();
	return {
		final: ctx.final ?? true,
		platform: checked ? 'PC' : 'OTHER',
		status: identificationStatus(overall, checked, ctx.manual ?? false, ctx.fraudTags),
		data: checked ? { ...DOCUMENT_DATA } : { ...NO_DOCUMENT_DATA },
		fileUrls: checked
			? {
					FRONT: `${FILES}/${scanRef}/FRONT.png`,
					BACK: `${FILES}/${scanRef}/BACK.png`,
					FACE: `${FILES}/${scanRef}/FACE.png`,
				}
			: {},
		additionalStepPdfUrls: {},
		AML: null,
		amlCheck: null,
		LID: null,
		CRIMINAL_CHECK: null,
		scanRef,
		externalRef: null,
		clientId: ctx.clientId ?? DEFAULT_CLIENT_ID,
		companyId: null,
		beneficiaryId: null,
		startTime: unixSeconds(ctx.startedAt ?? now - 300_000),
		finishTime: unixSeconds(ctx.finishedAt ?? now),
		clientIp: checked ? CLIENT_IP : null,
		clientIpCountry: checked ? 'LT' : null,
		clientLocation: checked ? 'Vilnius' : null,
		gdcMatch: null,
		manualAddress: null,
		manualAddressMatch: false,
		registryCenterCheck: null,
		addressVerification: null,
		questionnaireAnswers: null,
		riskAssessment: null,
		bankVerification: null,
		emailVerification: null,
		phoneVerification: null,
		driverLicenseCheck: null,
		bankCardVerification: null,
		additionalSteps: null,
	};
}

/** BANK_VERIFICATION (`BankVerificationWebhook`): the seeded verification with its account. */
function bankVerificationBody(): Record<string, unknown> {
	return {
		id: SEED.bank.verificationId,
		country: 'LT',
		bank: 'Swedbank',
		accounts: [
			{
				id: SEED.bank.accountId,
				name: 'Ąžuolas Žemaitis',
				iban: 'LT601010012345678901',
				currency: 'EUR',
				balancesOverview: { bookedBalance: 1520.35, availableBalance: 1480.1 },
				transactionsCount: SEED.bank.transactions,
			},
		],
		riskLevel: 'LOW',
	};
}

/** ACCOUNT_CHECK (`AccountCheckWebhook`): `status` is an integer 1-5, `score` a double. */
function accountCheckBody(): Record<string, unknown> {
	return {
		scanRef: randomUUID(),
		clientId: DEFAULT_CLIENT_ID,
		authToken: randomBytes(20).toString('base64url'),
		date: new Date().toISOString(),
		status: 2,
		score: 0.82,
		facebookScore: 0.7,
		gmailScore: 0.9,
		ipScore: 0.85,
	};
}

/** BANK_CARD_VERIFICATION_COMPLETED (`BankCardVerificationWebhook`): a flat body, no wrapper. */
function cardCheckBody(): Record<string, unknown> {
	return {
		id: randomUUID(),
		status: 'MATCH',
		noMatchReason: null,
		name: 'ĄŽUOLAS ŽEMAITIS',
		firstSix: '424242',
		lastFour: '4242',
		expiryDate: '2028-09-30',
		nameMatch: true,
		lastFourMatch: true,
	};
}

/** The dashboard user who reviewed (`ManagerAccount`; the older `ManagerAccountOld` adds a username). */
const MANAGER = {
	id: 17,
	name: 'Rūta',
	surname: 'Kazlauskienė',
	email: 'ruta.kazlauskiene@example.com',
};
const MANAGER_OLD = { ...MANAGER, username: 'ruta.kazlauskiene' };

/** The company a KYB body is about. */
export interface CompanyContext {
	companyId?: string;
	companyName?: string;
	clientId?: string;
}

function companyOf(ctx: CompanyContext) {
	return {
		id: ctx.companyId ?? SEED.kyb.companyId,
		companyName: ctx.companyName ?? 'UAB Baltic Widgets',
		clientId: ctx.clientId ?? SEED.kyb.clientId,
	};
}

/** An AML check of a company or person with no hits (`AmlCheckV3BusinessData` / `…IndividualData`). */
function amlCheckData(at: string) {
	return {
		id: randomUUID(),
		overallStatus: 'NO_FLAGS',
		statusSetBy: MANAGER,
		statusSetAt: at,
		adverseMedia: [],
		amlCheck: [],
	};
}

/** A beneficial owner (`BeneficiaryWebhook`): the service sends ids and checks, no name. */
function beneficiary(at: string) {
	return {
		id: randomUUID(),
		amlCheck: amlCheckData(at),
		beneficiaryCheck: null,
		negativeNewsCheck: null,
		scanRef: null,
		newsStatusSetBy: MANAGER_OLD,
		pepsStatusSetBy: MANAGER_OLD,
		sanctionsStatusSetBy: MANAGER_OLD,
	};
}

/**
 * COMPANY_REVIEW (`CompanyReviewWebhook`), "sent when a company verification is completed": the
 * company id is `id`; the decision is `approvalStatus` APPROVED or DENIED.
 */
export function companyReviewBody(
	ctx: CompanyContext & { approvalStatus?: 'APPROVED' | 'DENIED'; denyReason?: string | null } = {},
): Record<string, unknown> {
	const approvalStatus = ctx.approvalStatus ?? 'APPROVED';
	const at = new Date().toISOString();
	const denied =
		ctx.denyReason === undefined ? 'Beneficial owner could not be verified' : ctx.denyReason;
	return {
		...companyOf(ctx),
		registrationNumber: '305123456',
		approvalStatus,
		denyReason: approvalStatus === 'DENIED' ? denied : null,
		statusChangedBy: MANAGER_OLD,
		soleProprietor: false,
		amlCheck: amlCheckData(at),
		companyCheck: null,
		beneficiaries: [beneficiary(at), beneficiary(at)],
		shareholderCheck: [],
		negativeNewsCheck: [],
		externalRef: null,
		relatedClientScanRefs: [],
		// Deprecated, still required by the schema.
		newsStatusSetBy: MANAGER_OLD,
		sanctionsStatusSetBy: MANAGER_OLD,
	};
}

/** COMPANY_SUBMIT (`CompanySubmitWebhook`), sent when the KYB form is submitted. */
export function companySubmitBody(
	ctx: CompanyContext & { submissionTime?: string; externalRef?: string | null } = {},
): Record<string, unknown> {
	const { id, clientId } = companyOf(ctx);
	return {
		id,
		submissionTime: ctx.submissionTime ?? new Date().toISOString(),
		soleProprietor: false,
		clientId,
		externalRef: ctx.externalRef ?? null,
	};
}

/**
 * COMPANY_INFO_REQUEST (`CompanyInfoRequestWebhook`): the reviewer asked for more information (the
 * company's form link is `token`); the status is spelled CANCELED, with one L, when withdrawn.
 */
export function companyInfoRequestBody(
	ctx: CompanyContext & { token?: string } = {},
): Record<string, unknown> {
	return {
		companyId: companyOf(ctx).id,
		token: ctx.token ?? randomBytes(20).toString('base64url'),
		date: new Date().toISOString(),
		email: 'compliance@baltic-widgets.example',
		manager: MANAGER,
		status: 'REQUESTED',
	};
}

/** COMPANY_AML_REVIEW (`AmlReviewWebhook`): a reviewer cleared a beneficiary's PEP hit. */
function companyAmlReviewBody(): Record<string, unknown> {
	const at = new Date().toISOString();
	const { id: companyId, clientId } = companyOf({});
	return {
		amlReviewSubjectType: 'BENEFICIARY',
		id: randomUUID(),
		companyId,
		clientId,
		externalRef: null,
		negativeNewsComment: null,
		negativeNewsStatus: 'NO_FLAGS',
		newsStatusSetBy: MANAGER,
		newsStatusSetAt: at,
		amlComment: 'Namesake of a former official; date of birth differs.',
		pepsCheckStatus: 'FALSE_POSITIVE',
		pepsStatusSetBy: MANAGER,
		pepsStatusSetAt: at,
		sanctionsCheckStatus: 'NO_FLAGS',
		sanctionsStatusSetBy: MANAGER,
		sanctionsStatusSetAt: at,
		overallStatus: 'FALSE_POSITIVE',
		statusSetBy: MANAGER,
		statusSetAt: at,
	};
}

/** GOV_ORDERED_DOCUMENT (`GovPartnerOrderedDocument`): a registry extract that was delivered. */
function govOrderedDocumentBody(): Record<string, unknown> {
	const id = randomUUID();
	return {
		id,
		title: 'Extract from the Register of Legal Entities',
		documentFormat: 'pdf',
		productKey: 'LT_REGISTER_EXTRACT',
		expectedDeliveryTime: new Date(Date.now() + 3_600_000).toISOString(),
		price: 4.5,
		deliveredAt: new Date().toISOString(),
		status: 'FINISHED',
		file: `${FILES}/gov/${id}.pdf`,
	};
}

/** SOS_REPORT (`SosReportWebhook`): a US Secretary of State filing report. */
function sosReportBody(): Record<string, unknown> {
	const id = randomUUID();
	return {
		id,
		companyName: 'Müller & Søn Trading LLC',
		entityType: 'LLC',
		formationDate: '2016-08-01',
		status: 'FINISHED',
		reportFile: `${FILES}/sos/${id}.pdf`,
		dataFile: `${FILES}/sos/${id}.json`,
		watchlistHitsCount: 0,
	};
}

/** AML_MONITORING (`AmlMonitoringWebhook`): a monitored person re-screened, nothing found. */
function amlMonitoringBody(): Record<string, unknown> {
	return {
		monitoringId: randomUUID(),
		name: 'Łukasz',
		surname: 'Müller-Wiśniewski',
		nationality: 'PL',
		dob: '1990-03-17',
		isActive: true,
		expiration: new Date(Date.now() + 180 * 86_400_000).toISOString(),
		scanRefList: [randomUUID()],
		alertStatus: 'ACCEPTED',
		status: 'ACTIVE',
		pepsStatus: 'NO_FLAGS',
		sanctionsStatus: 'NO_FLAGS',
		adverseMediaStatus: 'NO_FLAGS',
		results: [],
		amlCheck: amlCheckData(new Date().toISOString()),
	};
}

/** DOCUMENT_EXPIRATION (`DocumentExpirationWebhook`): a verified document expires within 30 days. */
function documentExpirationBody(): Record<string, unknown> {
	return {
		scanRef: randomUUID(),
		clientId: DEFAULT_CLIENT_ID,
		expirationThreshold: 'DOCUMENT_EXPIRES_WITHIN_30_DAYS',
		documentExpiration: isoDay(Date.now() + 25 * 86_400_000),
	};
}

/** FACIAL_AUTHENTICATION (`FacialAuthenticationWebhook`, face authentication OpenAPI). */
function facialAuthenticationBody(): Record<string, unknown> {
	const id = randomUUID();
	return {
		id,
		scanRef: randomUUID(),
		clientId: DEFAULT_CLIENT_ID,
		token: randomBytes(20).toString('base64url'),
		status: 'Success',
		type: 'AUTHENTICATION',
		method: 'ACTIVE_LIVENESS',
		facePhoto: `${FILES}/face-auth/${id}.png`,
		ipAddress: CLIENT_IP,
		failReason: null,
		riskTags: [],
	};
}

/** AGE_ESTIMATION (`AgeEstimationWebhook`, age estimation OpenAPI). */
function ageEstimationBody(): Record<string, unknown> {
	return {
		scanRef: randomUUID(),
		status: 'COMPLETED',
		outcome: 'SUCCESS',
		verdict: 'ADULT',
		estimatedAge: 34,
		confidence: 92.5,
		clientId: DEFAULT_CLIENT_ID,
		occurredAt: new Date().toISOString(),
	};
}

/** VIDEO_CALL_FINISHED: the service declares no body for it; the sandbox names the session. */
function videoCallFinishedBody(): Record<string, unknown> {
	return {
		scanRef: randomUUID(),
		clientId: DEFAULT_CLIENT_ID,
		finishTime: unixSeconds(Date.now()),
	};
}

/** The kinds the sandbox sends: every kind the service has (OTHER stands for one it does not). */
export const SANDBOX_EVENT_TYPES: readonly EventType[] = EVENT_TYPES.filter(
	(kind) => kind !== 'OTHER',
);

/** Default bodies of the kinds that are not identifications. */
const OTHER_BODIES: Partial<Record<EventType, () => Record<string, unknown>>> = {
	BANK_VERIFICATION: bankVerificationBody,
	ACCOUNT_CHECK: accountCheckBody,
	BANK_CARD_VERIFICATION_COMPLETED: cardCheckBody,
	COMPANY_REVIEW: () => companyReviewBody(),
	COMPANY_SUBMIT: () => companySubmitBody(),
	COMPANY_INFO_REQUEST: () => companyInfoRequestBody(),
	COMPANY_AML_REVIEW: companyAmlReviewBody,
	COMPANY_EXPIRATION: () => ({ id: SEED.kyb.companyId, expirationStatus: 'PENDING' }),
	COMPANY_DELETE: () => ({
		date: new Date().toISOString(),
		manager: MANAGER,
		companyId: SEED.kyb.companyId,
	}),
	GOV_ORDERED_DOCUMENT: govOrderedDocumentBody,
	SOS_REPORT: sosReportBody,
	AML_MONITORING: amlMonitoringBody,
	AML_MONITORING_EXPIRATION: () => ({ usersToExtend: 2, usersToExpire: 1 }),
	DOCUMENT_EXPIRATION: documentExpirationBody,
	FACIAL_AUTHENTICATION: facialAuthenticationBody,
	AGE_ESTIMATION: ageEstimationBody,
	VIDEO_CALL_FINISHED: videoCallFinishedBody,
};

/** The default body of a kind (a fresh one each time: new ids and times). */
export function sampleBody(eventType: EventType): Record<string, unknown> {
	const other = OTHER_BODIES[eventType];
	if (other) return other();
	if (eventType === 'OTHER') throw new Error('OTHER is not a kind the service sends');
	return identificationBody(eventType, { manual: eventType === 'IDENTIFICATION_MANUAL_FINISHED' });
}
