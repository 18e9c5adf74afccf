import {
	NodeApiError,
	NodeConnectionTypes,
	NodeOperationError,
	type IDataObject,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';

import { serviceCredentialTests } from '../IdentityVerification/helpers/credentialTest';
import { RESULT_STATUSES, unstartedItems } from '../shared/resultRecord';
import { personalDataProperty } from '../shared/webhook/events';
import {
	watchCompanies,
	watchExpiredMonitorings,
	watchMonitorings,
	watchVerifications,
	type WatchRun,
} from './watches';

/** What the trigger keeps between polls (the node's static data): the state each list showed. */
interface PollState {
	verifications?: Record<string, string>;
	companies?: Record<string, string>;
	monitorings?: Record<string, string>;
	expiredMonitorings?: Record<string, string>;
	/** The Catch Up From value already replayed: a replay runs once per value. */
	caughtUpFrom?: string;
}

const STATE_KEY = 'pollState';
const DEFAULT_PAGES_PER_POLL = 10;
const MAX_PAGES_PER_POLL = 100;

const showVerifications = { show: { events: ['verificationResult'] } };

const EVENT_OPTIONS = [
	{
		name: 'AML Monitoring Alert',
		value: 'amlMonitoringAlert',
		description: 'A monitored person’s screening found something new (status ALERT)',
	},
	{
		name: 'AML Monitoring Expired',
		value: 'amlMonitoringExpired',
		description:
			'A monitoring’s year ended and it is screened no more (renew it with AML Monitoring → Update)',
	},
	{
		name: 'Company Reviewed',
		value: 'companyReviewed',
		description: 'A company’s KYB review was completed (approved or denied)',
	},
	{
		name: 'Company Submitted',
		value: 'companySubmitted',
		description: 'A company submitted its KYB form',
	},
	{
		name: 'Verification Result',
		value: 'verificationResult',
		description:
			'A verification reached a result: approved, denied (also cancelled), suspected or expired',
	},
];

/** Each event's name, for the canvas subtitle. */
const EVENT_NAMES = Object.fromEntries(EVENT_OPTIONS.map((option) => [option.value, option.name]));

export class IdentityVerificationPollingTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Identity Verification Polling Trigger',
		name: 'identityVerificationPollingTrigger',
		icon: { light: 'file:identityVerification.svg', dark: 'file:identityVerification.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: `={{ "Polling: " + (($parameter["events"] || []).length === 1 ? (${JSON.stringify(EVENT_NAMES)}[$parameter["events"][0]] || $parameter["events"][0]) : ($parameter["events"] || []).length + " kinds of result") }}`,
		description:
			'Starts a workflow on verification, company and AML monitoring results by checking the service’s lists: works behind a firewall, a few minutes late (the triggers under Identity Verification are instant but need a public URL)',
		defaults: { name: 'Identity Verification Polling Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'identityVerificationApi', required: true, testedBy: 'identityVerificationApiTest' },
		],
		properties: [
			{
				displayName:
					'Checks the service’s lists at each Poll Time and starts the workflow once for each new result, with the same item as the Identity Verification Trigger (delivery.source is "polling"). The first activation starts from that moment; set Catch Up From to replay older results. For instant results on a public n8n, use the Identity Verification Trigger.',
				name: 'notice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: ['verificationResult'],
				options: EVENT_OPTIONS,
				description: 'Which results start the workflow',
			},
			{
				displayName: 'Verification Results',
				name: 'statuses',
				type: 'multiOptions',
				default: [...RESULT_STATUSES],
				options: [
					{ name: 'Approved', value: 'APPROVED' },
					{ name: 'Denied (Also Cancelled)', value: 'DENIED' },
					{ name: 'Expired', value: 'EXPIRED' },
					{ name: 'Suspected', value: 'SUSPECTED' },
				],
				description: 'Which overall results of a verification start the workflow',
				displayOptions: showVerifications,
			},
			{
				displayName: 'Client IDs',
				name: 'clientIds',
				type: 'string',
				default: '',
				placeholder: 'e.g. customer-12345, customer-67890',
				description:
					'Only the verifications of these clients (comma-separated). Leave empty for the whole account.',
				displayOptions: showVerifications,
			},
			// The trigger's own choice (its version 1.1 option), on every version of this node.
			{ ...personalDataProperty('Output'), displayOptions: undefined },
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				options: [
					{
						displayName: 'Catch Up From',
						name: 'catchUpFrom',
						type: 'dateTime',
						default: '',
						description:
							'Once, at the next poll: also start the workflow for results since this date that are still among the newest the trigger reads (Pages per Poll). Each replayed verification costs one more request.',
					},
					{
						displayName: 'Pages per Poll',
						name: 'pagesPerPoll',
						type: 'number',
						default: DEFAULT_PAGES_PER_POLL,
						typeOptions: { minValue: 1, maxValue: MAX_PAGES_PER_POLL },
						description: `How many pages of 100 each list is read for, newest first: a result further back is not seen. Each page is one request, plus one per result found: with ${DEFAULT_PAGES_PER_POLL} and a poll every minute, up to ${DEFAULT_PAGES_PER_POLL * 60} requests an hour per list (the service allows 10,000 an hour by default).`,
					},
				],
			},
		],
	};

	methods = { credentialTest: serviceCredentialTests };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const events = this.getNodeParameter('events', []) as string[];
		const options = this.getNodeParameter('options', {}) as IDataObject;
		const staticData = this.getWorkflowStaticData('node');
		const manual = this.getMode() === 'manual';
		const before = (manual ? {} : (staticData[STATE_KEY] ?? {})) as PollState;
		const firstPoll = staticData[STATE_KEY] === undefined;
		const catchUpFrom = typeof options.catchUpFrom === 'string' ? options.catchUpFrom : '';
		const run: WatchRun = {
			context: this,
			// Fetch Test Event reads one page: the newest result of each kind selected.
			pagesPerPoll: manual ? 1 : pagesPerPollOf(this, options.pagesPerPoll),
			personalData: this.getNodeParameter('personalData', 'include') !== 'leaveOut',
			replayFrom: manual ? undefined : replayFromOf(this, catchUpFrom, before),
			limit: manual ? 1 : undefined,
		};
		// The first poll (no state yet) only takes a baseline: nothing older floods the workflow. Fetch
		// Test Event compares with nothing, so the newest result of each list is new to it.
		const seenBefore = (list: Record<string, string> | undefined) =>
			firstPoll && !manual ? undefined : (list ?? {});

		const watched = await watchAll(this, run, events, before, seenBefore).catch(quietOnRateLimit);
		if (watched === undefined) return null;
		const { next, items: found, resultKeys } = watched;
		if (manual) return firstOfEach(this, found);
		next.caughtUpFrom = catchUpFrom || undefined;
		staticData[STATE_KEY] = next as IDataObject;
		// Claimed only now, after every read succeeded: a poll that fails claims nothing.
		const items = unstartedItems(this, found, resultKeys, Date.now());
		return items.length > 0 ? [items.map((json) => ({ json }))] : null;
	}
}

/** Too many requests: the poll ends quietly and the next one reads again from the same state. */
function quietOnRateLimit(error: unknown): undefined {
	if (error instanceof NodeApiError && error.httpCode === '429') return undefined;
	throw error;
}

/** The replay's start (ms) when Catch Up From holds a date not yet replayed. */
function replayFromOf(
	context: IPollFunctions,
	catchUpFrom: string,
	before: PollState,
): number | undefined {
	if (catchUpFrom === '' || catchUpFrom === before.caughtUpFrom) return undefined;
	const ms = Date.parse(catchUpFrom);
	if (Number.isFinite(ms)) return ms;
	throw new NodeOperationError(context.getNode(), `Catch Up From: "${catchUpFrom}" is not a date`, {
		description: 'Pick a date and time, or remove the option.',
	});
}

/** Pages per Poll: a whole number from 1 to MAX_PAGES_PER_POLL (an expression may give anything). */
function pagesPerPollOf(context: IPollFunctions, value: unknown): number {
	const pages = value === undefined || value === '' ? DEFAULT_PAGES_PER_POLL : Number(value);
	if (Number.isInteger(pages) && pages >= 1 && pages <= MAX_PAGES_PER_POLL) return pages;
	throw new NodeOperationError(
		context.getNode(),
		`Pages per Poll: must be a whole number from 1 to ${MAX_PAGES_PER_POLL}`,
		{ description: `Enter, for example, ${DEFAULT_PAGES_PER_POLL}.` },
	);
}

/** Each selected list read and compared: the state to keep and the items to emit, lists in order. */
async function watchAll(
	context: IPollFunctions,
	run: WatchRun,
	events: string[],
	before: PollState,
	seenBefore: (list: Record<string, string> | undefined) => Record<string, string> | undefined,
): Promise<{ next: PollState; items: IDataObject[]; resultKeys: Map<IDataObject, string> }> {
	const next: PollState = {};
	const items: IDataObject[] = [];
	let resultKeys = new Map<IDataObject, string>();
	if (events.includes('verificationResult')) {
		const watched = await watchVerifications(run, seenBefore(before.verifications), {
			clientIds: clientIdsOf(context.getNodeParameter('clientIds', '') as string),
			statuses: context.getNodeParameter('statuses', RESULT_STATUSES) as string[],
		});
		next.verifications = watched.seen;
		items.push(...watched.items);
		resultKeys = watched.resultKeys ?? resultKeys;
	}
	if (events.includes('companySubmitted') || events.includes('companyReviewed')) {
		const watched = await watchCompanies(run, seenBefore(before.companies), {
			submitted: events.includes('companySubmitted'),
			reviewed: events.includes('companyReviewed'),
		});
		next.companies = watched.seen;
		items.push(...watched.items);
	}
	if (events.includes('amlMonitoringAlert')) {
		const watched = await watchMonitorings(run, seenBefore(before.monitorings));
		next.monitorings = watched.seen;
		items.push(...watched.items);
	}
	if (events.includes('amlMonitoringExpired')) {
		const watched = await watchExpiredMonitorings(run, seenBefore(before.expiredMonitorings));
		next.expiredMonitorings = watched.seen;
		items.push(...watched.items);
	}
	return { next, items, resultKeys };
}

function clientIdsOf(text: string): string[] {
	return text
		.split(',')
		.map((id) => id.trim())
		.filter((id) => id !== '');
}

/** Fetch Test Event: the newest item of each kind found, or why there is none. */
function firstOfEach(context: IPollFunctions, items: IDataObject[]): INodeExecutionData[][] {
	const byKind = new Map<unknown, IDataObject>();
	for (const item of items) if (!byKind.has(item.eventType)) byKind.set(item.eventType, item);
	if (byKind.size === 0) {
		throw new NodeOperationError(context.getNode(), 'No result of the selected kinds yet', {
			description:
				'The newest page of each list has none. Finish a verification (or submit or review a company) and fetch again.',
		});
	}
	return [[...byKind.values()].map((json) => ({ json }))];
}
