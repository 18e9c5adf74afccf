/**
 * AML checks: POST /aml/checks/ (screened against the lists of amlLists.cts), a check's profiles
 * (GET) and PDF reports of a check and of a profile. The checks, their hits and the profiles seeded
 * for PDF tests are kept in AmlStore, with the monitorings of amlMonitorings.cts.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
	amlCheckRequestSchema,
	amlPdfRequestSchema,
	amlProfilePdfParamsSchema,
	uuidSchema,
} from '../../../nodes/shared/contract';
import {
	checkPdfLines,
	listedProfile,
	pdfReply,
	runCheck,
	wholeListCheck,
	type AmlCheck,
} from '../amlLists.cjs';
import { bodyObject, json, notFound, parseOr400 } from '../http.cjs';
import type { Route } from '../router.cjs';
import { SEED } from '../seed.cjs';
import { MonitoringStore } from './amlMonitorings.cjs';

type Json = Record<string, unknown>;

interface ProfileRecord {
	checkId: string;
	profileId: string;
	password: string;
	sizeBytes?: number;
}

export class AmlStore {
	private profiles = new Map<string, ProfileRecord>();
	private checks = new Map<string, AmlCheck>();
	readonly monitorings = new MonitoringStore((check) => this.keep(check));

	constructor() {
		this.reset();
	}

	reset(): void {
		this.profiles.clear();
		this.checks.clear();
		this.monitorings.reset();
		this.seedProfile({ ...SEED.aml });
		// The seeded check: a person found on a sanctions list, whose hit is SEED.aml.profileId.
		const check = runCheck(
			wholeListCheck({
				clientId: 'sandbox-aml-client',
				userType: 'PERSON',
				input: { fullName: 'Aleksandr Volkov' },
			}),
		);
		this.keep({ ...check, id: SEED.aml.checkId });
	}

	/** A check kept, so that its profiles and PDF can be asked for. */
	keep(check: AmlCheck): AmlCheck {
		this.checks.set(check.id.toLowerCase(), check);
		return check;
	}

	check(checkId: string): AmlCheck | undefined {
		return this.checks.get(checkId.toLowerCase());
	}

	seedProfile(
		opts: { sizeBytes?: number; checkId?: string; profileId?: string; password?: string } = {},
	) {
		if (opts.checkId !== undefined && !uuidSchema.safeParse(opts.checkId).success) {
			throw new Error('checkId must be a UUID');
		}
		if (
			opts.sizeBytes !== undefined &&
			!(Number.isInteger(opts.sizeBytes) && opts.sizeBytes >= 0)
		) {
			throw new Error('sizeBytes must be a whole number >= 0');
		}
		const record: ProfileRecord = {
			checkId: (opts.checkId ?? randomUUID()).toLowerCase(),
			profileId: opts.profileId ?? `prof-${randomUUID().slice(0, 8)}`,
			password: opts.password ?? SEED.aml.password,
			sizeBytes: opts.sizeBytes,
		};
		this.profiles.set(`${record.checkId}/${record.profileId}`, record);
		return { checkId: record.checkId, profileId: record.profileId, password: record.password };
	}

	/** A profile of a check: one seeded for the PDF tests, or a hit of a kept check. */
	get(checkId: string, profileId: string): ProfileRecord | undefined {
		const seeded = this.profiles.get(`${checkId.toLowerCase()}/${profileId}`);
		if (seeded) return seeded;
		const hit = this.check(checkId)?.amlCheck.some((h) => h.resourceId === profileId);
		return hit ? { checkId: checkId.toLowerCase(), profileId, password: '' } : undefined;
	}
}

const pathSchema = z.object({ id: uuidSchema });
const profilePdfBodySchema = amlProfilePdfParamsSchema.pick({ password: true });

/** The name a profile goes by, for its PDF. */
function profileName(profileId: string): string {
	const profile = listedProfile(profileId)?.profile;
	if (!profile) return 'Jonas Jonaitis, born 1985-04-12, LT';
	return String(profile.name ?? `${String(profile.firstName)} ${String(profile.lastName)}`);
}

/** A profile that is on no list of the sandbox (seeded for a PDF test): a person of that ID. */
function unlistedProfile(profileId: string): Json {
	return {
		version: 1,
		resourceId: profileId,
		firstName: 'Jonas',
		lastName: 'Jonaitis',
		aliases: [],
		datesOfBirth: ['1985-04-12'],
		datesOfDeath: [],
		nationalities: ['LT'],
		addresses: [],
		profileImages: [],
		notes: [],
		contactEntries: [],
		identifiers: [],
		evidences: [],
		sanEntries: { current: [], former: [] },
		relEntries: [],
		rreEntries: [],
		poiEntries: [],
		insEntries: [],
		ddEntries: [],
		pepEntries: { current: [], former: [] },
		pepByAssociationEntries: [],
		individualLinks: [],
		businessLinks: [],
		griEntries: [],
		datasets: [],
	};
}

export const amlRoutes: Route[] = [
	{
		method: 'POST',
		pattern: '/aml/checks/',
		auth: 'basic',
		handler: (req, core) => {
			const request = parseOr400(amlCheckRequestSchema, bodyObject(req));
			return json(201, core.aml.keep(runCheck(request)));
		},
	},
	{
		method: 'GET',
		pattern: '/aml/checks/:id/profiles/:profileId/',
		auth: 'basic',
		handler: (req, core) => {
			parseOr400(pathSchema, { id: req.params.id });
			const { profileId } = req.params;
			if (!core.aml.get(req.params.id, profileId)) throw notFound();
			// "Information inside profiles is not filtered by check filters" (the provider's guide).
			return json(200, listedProfile(profileId)?.profile ?? unlistedProfile(profileId));
		},
	},
	{
		method: 'POST',
		pattern: '/aml/checks/:id/pdf/',
		auth: 'basic',
		handler: (req, core) => {
			parseOr400(pathSchema, { id: req.params.id });
			parseOr400(amlPdfRequestSchema, bodyObject(req));
			const check = core.aml.check(req.params.id);
			if (!check) throw notFound();
			const size = core.fileSizes.get(check.id);
			return pdfReply(`aml-check-${check.id}`, 'AML check report', checkPdfLines(check), size);
		},
	},
	{
		method: 'POST',
		pattern: '/aml/checks/:id/profiles/:profileId/pdf/',
		auth: 'basic',
		handler: (req, core) => {
			parseOr400(pathSchema, { id: req.params.id });
			parseOr400(profilePdfBodySchema, bodyObject(req));
			// The password is the one the service protects the PDF with: any non-empty value is accepted
			// and the sandbox's PDF is not encrypted (see README).
			const profile = core.aml.get(req.params.id, req.params.profileId);
			if (!profile) throw notFound();
			const lines = [
				`AML check: ${profile.checkId}`,
				`Profile: ${profile.profileId}`,
				`Subject: ${profileName(profile.profileId)}`,
				'Generated by the identity verification sandbox (test data).',
			];
			const name = `aml-${profile.checkId}-${profile.profileId}`;
			return pdfReply(name, 'AML screening profile report', lines, profile.sizeBytes);
		},
	},
];
