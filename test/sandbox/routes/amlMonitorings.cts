/**
 * AML monitorings (`/aml/monitorings/`), with state: created with a first screening (ALERT when it
 * finds a profile, else ACTIVE), listed with the provider's filters and paging, patched, stopped
 * (STOPPED until started again), deleted (then 404), a profile removed (a cleared false positive:
 * no longer listed, not found again by later screenings; the monitoring is ACTIVE again once no
 * hit is left), and a PDF of its history. The daily screening and the expiry notice are sent when
 * a test asks (`screen`, `expiringCounts`; core.cts sends the webhooks).
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
	amlMonitoringListQuerySchema,
	amlMonitoringRequestSchema,
	amlMonitoringStartStopSchema,
	amlMonitoringUpdateSchema,
	amlPdfRequestSchema,
	uuidSchema,
	type AmlMonitoringRequest,
} from '../../../nodes/shared/contract';
import { checkPdfLines, pdfReply, runCheck, wholeListCheck, type AmlCheck } from '../amlLists.cjs';
import { bodyObject, conflict, json, notFound, parseOr400 } from '../http.cjs';
import type { Req } from '../http.cjs';
import type { Route } from '../router.cjs';
import { SEED } from '../seed.cjs';
import { pageLink, pageOf, perPageOf } from './bank.cjs';

type Json = Record<string, unknown>;
type Subject = AmlMonitoringRequest['amlCheck'];

interface MonitoringRecord {
	id: string;
	isSubscribed: boolean;
	status: 'ACTIVE' | 'ALERT' | 'PENDING' | 'STOPPED';
	expiration: string;
	created: string;
	tags: string[];
	subject: Subject;
	/** The latest screening. */
	check: AmlCheck;
	/** Profiles a reviewer removed (false positives): later screenings leave them out. */
	cleared: Set<string>;
	/** What happened, for the PDF: starts, stops (with their comments), screenings. */
	history: string[];
}

/** v3 status → v2 `alertStatus` (the provider's migration guide). */
const V2_STATUS = { ACTIVE: 'ACCEPTED', ALERT: 'ALERT', STOPPED: 'DECLINED', PENDING: 'PENDING' };

const YEAR_MS = 365 * 86_400_000;
const MONTH_MS = 30 * 86_400_000;

export const nameOf = (subject: Subject) =>
	subject.userType === 'PERSON' ? subject.input.fullName : subject.input.companyName;

export class MonitoringStore {
	private records = new Map<string, MonitoringRecord>();

	/** `keepCheck`: the AML checks' store, so that a monitoring's profiles can be asked for. */
	constructor(private readonly keepCheck: (check: AmlCheck) => AmlCheck) {}

	reset(): void {
		this.records.clear();
		const amlCheck = {
			clientId: 'sandbox-aml-client',
			userType: 'PERSON' as const,
			input: { fullName: 'Jonas Jonaitis' },
		};
		this.create({ isSubscribed: false, amlCheck }, { id: SEED.aml.monitoringId });
	}

	/** POST /aml/monitorings/: the first screening runs at once. */
	create(
		request: AmlMonitoringRequest,
		opts: { expiration?: string; id?: string } = {},
	): MonitoringRecord {
		const now = Date.now();
		const record: MonitoringRecord = {
			id: opts.id ?? randomUUID(),
			isSubscribed: request.isSubscribed,
			status: 'PENDING',
			expiration: opts.expiration ?? new Date(now + YEAR_MS).toISOString(),
			created: new Date(now).toISOString(),
			tags: request.tags ?? [],
			subject: request.amlCheck,
			check: undefined as unknown as AmlCheck,
			cleared: new Set(),
			history: [],
		};
		this.records.set(record.id, record);
		this.screen(record.id);
		return record;
	}

	get(id: string): MonitoringRecord | undefined {
		return this.records.get(id.toLowerCase());
	}

	/** The record, or the service's 404. */
	found(id: string): MonitoringRecord {
		const record = this.get(id);
		if (!record) throw notFound();
		return record;
	}

	/**
	 * The daily screening: the subject against the lists (every dataset), without the profiles a
	 * reviewer removed. ALERT when something is found, ACTIVE when not; a stopped one is refused.
	 */
	screen(id: string): MonitoringRecord {
		const record = this.found(id);
		if (record.status === 'STOPPED') throw conflict('A stopped monitoring is not screened.');
		const check = runCheck(wholeListCheck(record.subject));
		check.amlCheck = check.amlCheck.filter((hit) => !record.cleared.has(String(hit.resourceId)));
		record.check = { ...check, overallStatus: flagsOf(check) };
		record.status = record.check.overallStatus === 'FLAGS_FOUND' ? 'ALERT' : 'ACTIVE';
		record.history.push(`${check.checkedAt as string}: screened, ${record.status}`);
		this.keepCheck({ ...record.check, monitoring: this.summary(record) });
		return record;
	}

	update(id: string, patch: z.infer<typeof amlMonitoringUpdateSchema>): MonitoringRecord {
		const record = this.found(id);
		if (patch.tags !== undefined) record.tags = patch.tags;
		if (patch.isSubscribed !== undefined) record.isSubscribed = patch.isSubscribed;
		// Renewal adds a year to a monitoring that has expired or is about to (the provider's guide:
		// "add a monitoring extension (yearly)").
		if (patch.isSubscribed && Date.parse(record.expiration) < Date.now() + MONTH_MS)
			record.expiration = new Date(Date.parse(record.expiration) + YEAR_MS).toISOString();
		return record;
	}

	startStop(id: string, action: 'start' | 'stop', comment?: string): MonitoringRecord {
		const record = this.found(id);
		record.history.push(
			`${new Date().toISOString()}: ${action === 'stop' ? 'stopped' : 'started'}${comment ? ` (${comment})` : ''}`,
		);
		if (action === 'stop') record.status = 'STOPPED';
		else if (record.status === 'STOPPED')
			record.status = hasFlags(record.check) ? 'ALERT' : 'ACTIVE';
		return record;
	}

	delete(id: string): void {
		this.found(id);
		this.records.delete(id.toLowerCase());
	}

	/** A cleared false positive: out of the hits; ACTIVE again once nothing is left to review. */
	removeProfile(id: string, profileId: string): void {
		const record = this.found(id);
		const hits = record.check.amlCheck;
		if (!hits.some((hit) => hit.resourceId === profileId)) throw notFound();
		record.cleared.add(profileId);
		record.check = { ...record.check, amlCheck: hits.filter((h) => h.resourceId !== profileId) };
		record.check.overallStatus = flagsOf(record.check);
		if (record.status === 'ALERT' && !hasFlags(record.check)) record.status = 'ACTIVE';
		record.history.push(`${new Date().toISOString()}: profile ${profileId} removed`);
	}

	/** The monitorings the list's filters keep, in the order asked for (newest first by default). */
	list(query: z.infer<typeof amlMonitoringListQuerySchema>): MonitoringRecord[] {
		const now = Date.now();
		const kept = [...this.records.values()].filter(
			(r) =>
				(!query.status || r.status === query.status) &&
				(!query.userType || r.subject.userType === query.userType) &&
				(!query.name || nameOf(r.subject).toLowerCase().includes(query.name.toLowerCase())) &&
				(!query.country || countryOf(r.subject) === query.country.toUpperCase()) &&
				(query.isExpired === undefined || Date.parse(r.expiration) < now === query.isExpired) &&
				(query.tags ?? []).every((tag) => r.tags.includes(tag)),
		);
		const order = query.orderBy ?? '-created';
		const field = order.replace('-', '') as 'created' | 'expiration';
		const sign = order.startsWith('-') ? -1 : 1;
		return kept.sort((a, b) => sign * a[field].localeCompare(b[field]));
	}

	/** AML_MONITORING_EXPIRATION's counts: monitorings that expire within 30 days, renewed or not. */
	expiringCounts(): { usersToExtend: number; usersToExpire: number } {
		const soon = [...this.records.values()].filter(
			(r) => r.status !== 'STOPPED' && Date.parse(r.expiration) < Date.now() + MONTH_MS,
		);
		const usersToExtend = soon.filter((r) => r.isSubscribed).length;
		return { usersToExtend, usersToExpire: soon.length - usersToExtend };
	}

	/** The check's `monitoring` (`AmlCheckMonitoring`). */
	summary(record: MonitoringRecord): Json {
		const { id, status, isSubscribed, expiration, tags, created } = record;
		return { id, status, isSubscribed, expiration, tags, created };
	}

	/** GET /aml/monitorings/{id}/ (`AmlMonitoring`). */
	answer(record: MonitoringRecord): Json {
		const { monitoring: _left, ...check } = record.check;
		return { ...this.summary(record), amlCheck: check };
	}

	/** A monitoring in the list (`AmlMonitoringList`). */
	listEntry(record: MonitoringRecord): Json {
		const { id, status, isSubscribed, expiration, tags, created } = record;
		const name = nameOf(record.subject);
		const { userType } = record.subject;
		const checkedAt = record.check.checkedAt;
		return { id, name, userType, checkedAt, created, status, isSubscribed, expiration, tags };
	}

	/**
	 * The AML_MONITORING body of a screening (`AmlMonitoringWebhook`): the v3 `status` and the v2
	 * `alertStatus` beside it (the provider's migration guide), the subject in v2's fields.
	 */
	webhookBody(record: MonitoringRecord): Json {
		const { subject, check } = record;
		const [name, ...surname] = nameOf(subject).split(' ');
		const found = (prefix: string) =>
			check.amlCheck.some((hit) => (hit.datasets as string[]).some((d) => d.startsWith(prefix)))
				? 'FLAGS_FOUND'
				: 'NO_FLAGS';
		return {
			monitoringId: record.id,
			name: subject.userType === 'PERSON' ? name : nameOf(subject),
			surname: subject.userType === 'PERSON' ? surname.join(' ') : '',
			nationality: countryOf(subject) ?? '',
			dob: subject.userType === 'PERSON' ? (subject.input.dateOfBirth ?? null) : null,
			isActive: record.status !== 'STOPPED',
			expiration: record.expiration,
			scanRefList: [],
			alertStatus: V2_STATUS[record.status],
			status: record.status,
			pepsStatus: found('PEP'),
			sanctionsStatus: found('SAN'),
			adverseMediaStatus: check.adverseMedia.length > 0 ? 'FLAGS_FOUND' : 'NO_FLAGS',
			results: [],
			amlCheck: {
				id: check.id,
				overallStatus: check.overallStatus,
				statusSetBy: null,
				statusSetAt: null,
				adverseMedia: check.adverseMedia,
				amlCheck: check.amlCheck,
			},
		};
	}

	/** The history of a monitoring, for its PDF. */
	pdfLines(record: MonitoringRecord): string[] {
		return [
			`AML monitoring: ${record.id} (${record.status}), expires ${record.expiration}`,
			...checkPdfLines(record.check).slice(1, -1),
			...record.history,
			'Generated by the identity verification sandbox (test data).',
		];
	}
}

function hasFlags(check: AmlCheck): boolean {
	return check.amlCheck.length + check.adverseMedia.length > 0;
}

const flagsOf = (check: AmlCheck) => (hasFlags(check) ? 'FLAGS_FOUND' : 'NO_FLAGS');

function countryOf(subject: Subject): string | undefined {
	const code = subject.userType === 'PERSON' ? subject.input.nationality : subject.input.country;
	return code ?? undefined;
}

/** The list's query as the schema reads it: `true`/`false` and comma-separated values. */
function queryOf(req: Req): Json {
	const query: Json = {};
	for (const name of ['status', 'userType', 'name', 'country', 'orderBy']) {
		const value = req.query.get(name);
		if (value !== null) query[name] = value;
	}
	const expired = req.query.get('isExpired');
	if (expired !== null)
		query.isExpired = expired === 'true' ? true : expired === 'false' ? false : expired;
	const tags = req.query.get('tags');
	if (tags !== null) query.tags = tags.split(',');
	return query;
}

const pathSchema = z.object({ id: uuidSchema });
const monitoringOf = (req: Req, store: MonitoringStore) => {
	parseOr400(pathSchema, { id: req.params.id });
	return store.found(req.params.id);
};

export const amlMonitoringRoutes: Route[] = [
	{
		method: 'POST',
		pattern: '/aml/monitorings/',
		auth: 'basic',
		handler: (req, core) => {
			const store = core.aml.monitorings;
			const record = store.create(parseOr400(amlMonitoringRequestSchema, bodyObject(req)));
			return json(201, store.answer(record));
		},
	},
	{
		method: 'GET',
		pattern: '/aml/monitorings/',
		auth: 'basic',
		handler: (req, core) => {
			const store = core.aml.monitorings;
			const all = store.list(parseOr400(amlMonitoringListQuerySchema, queryOf(req)));
			const perPage = perPageOf(req.query.get('perPage'));
			const lastPage = Math.max(1, Math.ceil(all.length / perPage));
			const page = pageOf(req.query.get('page'), lastPage);
			const results = all
				.slice((page - 1) * perPage, page * perPage)
				.map((r) => store.listEntry(r));
			return json(200, {
				count: all.length,
				next: page < lastPage ? pageLink(req, page + 1) : null,
				previous: page > 1 ? pageLink(req, page - 1) : null,
				results,
			});
		},
	},
	{
		method: 'GET',
		pattern: '/aml/monitorings/:id/',
		auth: 'basic',
		handler: (req, core) =>
			json(200, core.aml.monitorings.answer(monitoringOf(req, core.aml.monitorings))),
	},
	{
		method: 'PATCH',
		pattern: '/aml/monitorings/:id/',
		auth: 'basic',
		handler: (req, core) => {
			const store = core.aml.monitorings;
			const { id } = monitoringOf(req, store);
			const patch = parseOr400(amlMonitoringUpdateSchema, bodyObject(req));
			return json(200, store.answer(store.update(id, patch)));
		},
	},
	{
		method: 'DELETE',
		pattern: '/aml/monitorings/:id/',
		auth: 'basic',
		handler: (req, core) => {
			core.aml.monitorings.delete(monitoringOf(req, core.aml.monitorings).id);
			return { status: 204 };
		},
	},
	...(['start', 'stop'] as const).map(
		(action): Route => ({
			method: 'POST',
			pattern: `/aml/monitorings/:id/${action}/`,
			auth: 'basic',
			handler: (req, core) => {
				const store = core.aml.monitorings;
				const { id } = monitoringOf(req, store);
				const { comment } = parseOr400(amlMonitoringStartStopSchema, bodyObject(req));
				return json(200, store.answer(store.startStop(id, action, comment)));
			},
		}),
	),
	{
		method: 'POST',
		pattern: '/aml/monitorings/:id/pdf/',
		auth: 'basic',
		handler: (req, core) => {
			const record = monitoringOf(req, core.aml.monitorings);
			parseOr400(amlPdfRequestSchema, bodyObject(req));
			const lines = core.aml.monitorings.pdfLines(record);
			const size = core.fileSizes.get(record.id);
			return pdfReply(`aml-monitoring-${record.id}`, 'AML monitoring report', lines, size);
		},
	},
	{
		method: 'DELETE',
		pattern: '/aml/monitorings/:id/profiles/:profileId/',
		auth: 'basic',
		handler: (req, core) => {
			const store = core.aml.monitorings;
			store.removeProfile(monitoringOf(req, store).id, req.params.profileId);
			return { status: 204 };
		},
	},
];
