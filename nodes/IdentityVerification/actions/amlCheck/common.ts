/** The IDs the AML Check operations after Create ask for, and where a workflow finds them. */
import type { INodeProperties } from 'n8n-workflow';

export const checkIdField: INodeProperties = {
	displayName: 'Check ID',
	name: 'checkId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. {{ $json.checkId }}',
	hint: 'After Create or Get Profile, drag checkId from the input here, or enter {{ $json.checkId }}',
	description:
		'The ID of the AML check (a UUID): the checkId that Create outputs, or the ID the dashboard shows',
};

export const profileIdField: INodeProperties = {
	displayName: 'Profile ID',
	name: 'profileId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. {{ $json.resourceId }}',
	hint: 'The resourceId of a hit. After Create, a Split Out node on amlCheck (Include: All Other Fields) gives one item per hit: enter {{ $json.resourceId }}. After Get Profile: {{ $json.profileId }}',
	description: 'The ID of a profile the check found (a hit’s resourceId)',
};

export const CHECK_ID_LABEL = {
	label: checkIdField.displayName,
	fix: 'Enter the AML check ID, the UUID that Create outputs as checkId (or that the dashboard shows).',
};

export const PROFILE_ID_LABEL = {
	label: profileIdField.displayName,
	fix: 'Enter the resourceId of one of the check’s hits.',
};

/** A 404 on a profile: the service looks it up within the check, so either ID may be wrong. */
export const PROFILE_NOT_FOUND = {
	message:
		'Not found (HTTP 404): the service has no profile with this Profile ID in the AML check with this Check ID',
	advice:
		'The service looks the profile up within the check. Check the IDs: the Check ID (checkId of Create) and the Profile ID (the resourceId of one of that check’s hits), from the account of this credential.',
};

export const CHECK_NOT_FOUND = {
	message: 'Not found (HTTP 404): the service has no AML check with this Check ID',
	advice:
		'Check the Check ID (checkId of Create, or the ID the dashboard shows) and that the check was made with the account of this credential (sandbox and production keys see different checks).',
};
