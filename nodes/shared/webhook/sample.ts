/**
 * The sample delivery the trigger emits while it listens for a test event and the Test URL is
 * opened in a browser: an approved verification shaped like the service's identification body
 * (made-up person), so a workflow can be tried before the service sends anything.
 */
import type { IDataObject } from 'n8n-workflow';

export const SAMPLE_EVENT_TYPE = 'IDENTIFICATION_AUTO_FINISHED';

export const SAMPLE_BODY: IDataObject = {
	final: true,
	platform: 'PC',
	status: {
		overall: 'APPROVED',
		fraudTags: [],
		mismatchTags: [],
		autoFace: 'FACE_MATCH',
		manualFace: null,
		autoDocument: 'DOC_VALIDATED',
		manualDocument: null,
		additionalSteps: null,
	},
	data: {
		docFirstName: 'JONAS',
		docLastName: 'SAMPLE',
		docNumber: 'AB0000000',
		docPersonalCode: null,
		docExpiry: '2031-01-31',
		docDob: '1990-12-31',
		docType: 'ID_CARD',
		docSex: 'MALE',
		docNationality: 'LT',
		docIssuingCountry: 'LT',
		fullName: 'JONAS SAMPLE',
	},
	fileUrls: {},
	scanRef: '00000000-0000-4000-8000-000000000042',
	externalRef: null,
	clientId: 'sample-customer-42',
	companyId: null,
	beneficiaryId: null,
	startTime: 1767225600,
	finishTime: 1767225780,
	clientIp: null,
	clientIpCountry: null,
	clientLocation: null,
};
